/**
 * The operator listener's settings: OPERATOR_PORT (off when unset), OPERATOR_HOST (127.0.0.1 by default)
 * and OPERATOR_TOKEN (required with the port, at least 32 characters).
 *
 * @module
 */
import { MIN_OPERATOR_TOKEN_LENGTH, operatorTokenProblem } from '../core/operator/app.ts';
import { ConfigError } from './config-error.ts';

export interface OperatorSettings {
  port: number;
  host: string;
  token: string;
}

/**
 * Reads the settings; null when OPERATOR_PORT is unset.
 *
 * @throws ConfigError for a port that is not one, a missing or short token, or a token without a port.
 */
export function operatorSettings(env: NodeJS.ProcessEnv): OperatorSettings | null {
  const portText = env['OPERATOR_PORT']?.trim();
  const token = env['OPERATOR_TOKEN'] ?? '';
  if (!portText) {
    if (token) throw new ConfigError('OPERATOR_TOKEN is set but OPERATOR_PORT is not: set OPERATOR_PORT to serve the operator API, or unset the token');
    return null;
  }
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`OPERATOR_PORT must be a port number from 0 to 65535, not ${JSON.stringify(portText)}`);
  }
  if (token.trim().length < MIN_OPERATOR_TOKEN_LENGTH) {
    throw new ConfigError(
      `OPERATOR_TOKEN must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters when OPERATOR_PORT is set (for example: openssl rand -hex 32)`,
    );
  }
  const problem = operatorTokenProblem(token.trim());
  if (problem !== null) throw new ConfigError(`OPERATOR_TOKEN ${problem} (for example: openssl rand -hex 32)`);
  return { port: Number(portText), host: env['OPERATOR_HOST']?.trim() || '127.0.0.1', token: token.trim() };
}

const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Refuses an operator listener on the public listener's port and address, before anything is opened
 * (it migrated the storage, then stopped with exit 1 when the second bind failed).
 *
 * @throws ConfigError naming both settings.
 */
export function checkOperatorPort(operator: OperatorSettings | null, port: number, host: string): void {
  if (!operator || operator.port === 0 || operator.port !== port) return;
  if (operator.host !== host && !ANY_ADDRESS.has(operator.host) && !ANY_ADDRESS.has(host)) return;
  throw new ConfigError(`OPERATOR_PORT must differ from PORT (both ${port} on ${host === operator.host ? host : `${host} and ${operator.host}`}): the operator API needs a listener of its own`);
}
