/**
 * Which storage the server uses, from the environment: STORAGE=memory|pglite|postgres; DATABASE_URL alone
 * implies postgres; nothing set means durable PGlite in DATA_DIR (./data).
 *
 * @module
 */
import { resolve } from 'node:path';
import { checkSchemaName } from '../adapters/sql/client.ts';
import { DEFAULT_DISK_RESERVE_BYTES } from '../adapters/pglite/disk-reserve.ts';
import { ConfigError } from './config-error.ts';

/** The chosen storage and what it needs. */
export type StorageSettings =
  | { kind: 'memory' }
  | { kind: 'pglite'; dataDir: string; diskReserveBytes?: number }
  | { kind: 'postgres'; url: string; schema: string; rateLimitTimeoutMs: number; preparedStatements: boolean };

/** How long a batch of shared rate-limit hits may take before the instance counts on its own. */
export const DEFAULT_RATE_LIMIT_TIMEOUT_MS = 300;
/** setTimeout's longest delay. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

const KINDS = ['memory', 'pglite', 'postgres'] as const;

function databaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env['DATABASE_URL']?.trim();
  if (!url) throw new ConfigError('STORAGE=postgres needs DATABASE_URL, e.g. postgres://user@db.example.com:5432/site');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  return url;
}

function schema(env: NodeJS.ProcessEnv): string {
  try {
    return checkSchemaName(env['DATABASE_SCHEMA'] || 'public');
  } catch (error) {
    throw new ConfigError(`DATABASE_SCHEMA: ${(error as Error).message}`);
  }
}

function diskReserveBytes(env: NodeJS.ProcessEnv): number {
  const text = env['DISK_RESERVE_BYTES']?.trim();
  if (!text) return DEFAULT_DISK_RESERVE_BYTES;
  if (!/^\d{1,15}$/.test(text)) {
    throw new ConfigError(`DISK_RESERVE_BYTES must be a whole number of bytes (0 turns the reserve off), not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function rateLimitTimeout(env: NodeJS.ProcessEnv): number {
  const text = env['RATE_LIMIT_DB_TIMEOUT_MS']?.trim();
  if (!text) return DEFAULT_RATE_LIMIT_TIMEOUT_MS;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > LONGEST_TIMER_MS) {
    throw new ConfigError(`RATE_LIMIT_DB_TIMEOUT_MS must be a whole number of ms from 1 to ${LONGEST_TIMER_MS}, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** DATABASE_PREPARED_STATEMENTS: true unless set to false (a pooler that cannot keep prepared statements). */
function preparedStatements(env: NodeJS.ProcessEnv): boolean {
  const text = env['DATABASE_PREPARED_STATEMENTS']?.trim().toLowerCase();
  if (!text || text === 'true') return true;
  if (text === 'false') return false;
  throw new ConfigError(`DATABASE_PREPARED_STATEMENTS must be true or false, not ${JSON.stringify(env['DATABASE_PREPARED_STATEMENTS'])}`);
}

/**
 * Reads the storage settings.
 *
 * @param env The process environment.
 * @param cwd The directory a relative DATA_DIR starts from.
 * @throws ConfigError for an unknown STORAGE, a missing or malformed DATABASE_URL, a malformed DISK_RESERVE_BYTES, a bad
 *   RATE_LIMIT_DB_TIMEOUT_MS or DATABASE_PREPARED_STATEMENTS.
 */
export function storageSettings(env: NodeJS.ProcessEnv, cwd: string): StorageSettings {
  const named = env['STORAGE']?.trim() || (env['DATABASE_URL']?.trim() ? 'postgres' : 'pglite');
  const kind = KINDS.find((k) => k === named);
  if (!kind) throw new ConfigError(`STORAGE=${JSON.stringify(named)} is not one of ${KINDS.join(', ')}`);
  if (kind === 'memory') return { kind };
  if (kind === 'pglite') return { kind, dataDir: resolve(cwd, env['DATA_DIR'] || 'data'), diskReserveBytes: diskReserveBytes(env) };
  return { kind, url: databaseUrl(env), schema: schema(env), rateLimitTimeoutMs: rateLimitTimeout(env), preparedStatements: preparedStatements(env) };
}
