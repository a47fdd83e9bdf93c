/**
 * The environment of the server under test for each storage, in places of its own that are removed
 * afterwards: a temporary PGlite data directory, or a Postgres schema of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';

export function storageEnv(storage: string): { env: Record<string, string>; cleanup: () => Promise<void> } {
  if (storage === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    return { env: { STORAGE: 'pglite', DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (storage === 'postgres') {
    const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
    const schema = `bench_${process.pid}`;
    return {
      env: { STORAGE: 'postgres', DATABASE_URL: url, DATABASE_SCHEMA: schema },
      cleanup: async () => {
        const sql = postgres(url, { onnotice: () => {} });
        await sql.unsafe(`drop schema if exists ${schema} cascade`);
        await sql.end();
      },
    };
  }
  return { env: { STORAGE: storage }, cleanup: async () => {} };
}
