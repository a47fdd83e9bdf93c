/**
 * Measures rate-limit store throughput: `concurrency` callers, each hitting its own key as fast as its
 * previous hit returns, for `seconds`. Compares the memory store with the SQL store on DATABASE_URL
 * (batched, as in production) and with one statement per hit (maxBatch 1, no collect wait).
 *
 * Usage: DATABASE_URL=postgres://... node --import tsx bench/rate-limit-store.ts [concurrency] [seconds]
 */
import { createMemoryRateLimitStore } from '../adapters/memory/index.ts';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { createSqlRateLimitStore } from '../adapters/sql/rate-limits.ts';
import { createSharedRateLimitStore } from '../adapters/sql/shared-rate-limits.ts';
import type { RateLimitStore } from '../core/ports/ports.ts';

const concurrency = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 3);
const url = process.env['DATABASE_URL'];
if (!url) throw new Error('set DATABASE_URL');

async function measure(name: string, store: RateLimitStore): Promise<void> {
  const end = Date.now() + seconds * 1000;
  let hits = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (Date.now() < end) {
        await store.hit(`198.51.100.${i}`, 60_000, 120);
        hits++;
      }
    }),
  );
  console.log(`${name}: ${Math.round(hits / seconds)} hits/s with ${concurrency} concurrent callers`);
}

const schema = `bench_${process.pid}`;
const client = createPostgresClient({ url, schema });
await migrate(client);
try {
  await measure('memory', createMemoryRateLimitStore({ now: () => Date.now() }));
  await measure('postgres, batched', createSqlRateLimitStore(client));
  await measure('postgres, batched, hashed keys and outage fallback (as served)', createSharedRateLimitStore(client));
  await measure('postgres, one statement per hit', createSqlRateLimitStore(client, { maxBatch: 1, collectMs: 0 }));
} finally {
  await client.query(`drop schema "${schema}" cascade`);
  await client.close();
}
