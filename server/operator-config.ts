/**
 * The operator listener's settings: OPERATOR_PORT (off when unset), OPERATOR_HOST (127.0.0.1 by default),
 * and the operators' tokens (required with the port): OPERATOR_TOKEN (one shared token, acting as
 * `operator`), OPERATOR_TOKENS (`name:token,name:token`, one per person), or both. Each token at least 32
 * characters of at least 8 different ones; no name or token twice.
 *
 * @module
 */
import { MIN_OPERATOR_TOKEN_LENGTH } from '../core/operator/app.ts';
import { DEFAULT_OPERATOR_NAME, type OperatorToken, operatorTokenProblem, operatorTokensProblem, parseOperatorTokens } from '../core/operator/named-tokens.ts';
import { ConfigError } from './config-error.ts';

export interface OperatorSettings {
  port: number;
  host: string;
  /** Every operator's token: OPERATOR_TOKEN's (named `operator`) first, then OPERATOR_TOKENS' in order. */
  tokens: OperatorToken[];
}

const EXAMPLE = '(for example: openssl rand -hex 32)';

/** OPERATOR_TOKEN as the token of `operator`, or none when it is unset. */
function singleToken(token: string, named: boolean): OperatorToken[] {
  if (token === '' && named) return [];
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    throw new ConfigError(
      `OPERATOR_TOKEN must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters when OPERATOR_PORT is set ${EXAMPLE}, or give each operator a token of their own in OPERATOR_TOKENS`,
    );
  }
  const problem = operatorTokenProblem(token);
  if (problem !== null) throw new ConfigError(`OPERATOR_TOKEN ${problem} ${EXAMPLE}`);
  return [{ name: DEFAULT_OPERATOR_NAME, token }];
}

/** OPERATOR_TOKENS read and checked, with OPERATOR_TOKEN's `operator` among the names. */
function namedTokens(text: string, single: OperatorToken[]): OperatorToken[] {
  const parsed = parseOperatorTokens(text);
  const format = `OPERATOR_TOKENS is name:token pairs separated by commas, e.g. ada:<token>,grace:<token>`;
  if (typeof parsed === 'string') throw new ConfigError(`OPERATOR_TOKENS: ${parsed} (${format})`);
  const problem = operatorTokensProblem([...single, ...parsed]);
  if (problem !== null) {
    const note = single.length > 0 && problem.includes(DEFAULT_OPERATOR_NAME) ? ` (OPERATOR_TOKEN is the token of ${DEFAULT_OPERATOR_NAME})` : '';
    const weak = /^token of \S+ must /.test(problem) ? ` ${EXAMPLE}` : '';
    throw new ConfigError(`OPERATOR_TOKENS: ${problem}${note}${weak}`);
  }
  return parsed;
}

/**
 * Reads the settings; null when OPERATOR_PORT is unset.
 *
 * @throws ConfigError for a port that is not one, no token or a weak one, a bad OPERATOR_TOKENS entry, a
 *   name or token given twice, or tokens without a port.
 */
export function operatorSettings(env: NodeJS.ProcessEnv): OperatorSettings | null {
  const portText = env['OPERATOR_PORT']?.trim();
  const token = (env['OPERATOR_TOKEN'] ?? '').trim();
  const named = (env['OPERATOR_TOKENS'] ?? '').trim();
  if (!portText) {
    if (token) throw new ConfigError('OPERATOR_TOKEN is set but OPERATOR_PORT is not: set OPERATOR_PORT to serve the operator API, or unset the token');
    if (named) throw new ConfigError('OPERATOR_TOKENS is set but OPERATOR_PORT is not: set OPERATOR_PORT to serve the operator API, or unset the tokens');
    return null;
  }
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`OPERATOR_PORT must be a port number from 0 to 65535, not ${JSON.stringify(portText)}`);
  }
  const single = singleToken(token, named !== '');
  const tokens = [...single, ...(named === '' ? [] : namedTokens(named, single))];
  return { port: Number(portText), host: env['OPERATOR_HOST']?.trim() || '127.0.0.1', tokens };
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
  throw new ConfigError(
    `OPERATOR_PORT must differ from PORT (both ${port} on ${
      host === operator.host ? host : `${host} and ${operator.host}`
    }): the operator API needs a listener of its own`,
  );
}
