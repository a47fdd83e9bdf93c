/**
 * The Worker under workerd as a benchmark process: bundled from the example config as
 * `npm run start:workers` does, on the storage's schema (migrated first: the Worker does not migrate),
 * pinned to core 0 like the other servers. The load generator talks to workerd directly and names each
 * client in CF-Connecting-IP, as Cloudflare's edge does; the local front of start:workers is left out.
 */
import { spawnSync } from 'node:child_process';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { startWorkerd } from '../scripts/workerd.ts';
import { EXAMPLE_CONFIG } from '../server/config.ts';
import type { BenchProcess } from './process.ts';

/**
 * Starts the Worker.
 *
 * @param env The storage's environment (bench/storage-env.ts): DATABASE_URL and DATABASE_SCHEMA for postgres.
 */
export async function startWorkerdProcess(env: Record<string, string>): Promise<BenchProcess> {
  const bindings: Record<string, string> = { PRODUCT_VERSION: '2.4.1' };
  if (env['DATABASE_URL']) {
    const client = createPostgresClient({ url: env['DATABASE_URL'], schema: env['DATABASE_SCHEMA'] ?? 'public', connectTimeoutMs: 10_000 });
    await migrate(client).finally(() => client.close());
    Object.assign(bindings, { DATABASE_URL: env['DATABASE_URL'], DATABASE_SCHEMA: env['DATABASE_SCHEMA'] ?? 'public' });
  }
  const worker = await startWorkerd({ configFile: EXAMPLE_CONFIG }, bindings);
  const pid = worker.child.pid!;
  spawnSync('taskset', ['-cp', '0', String(pid)]);
  return { child: worker.child, pid, url: worker.url, stop: async () => void (await worker.stop()) };
}
