/**
 * Retention on PGlite under a flood of distinct clients: how long one pass blocks the event loop (the
 * longest gap between two 1 ms timer ticks while it runs), and how the data directory grows over
 * flood cycles (each cycle: `clients` new rate-limit windows and unpaid checkout sessions, all ended,
 * then one retention pass). Deleted keys are searched for in the data files afterwards.
 *
 * Usage: node --import tsx bench/retention.ts [clients per cycle, 100000] [cycles, 5]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgliteClient } from '../adapters/pglite/index.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { runRetention } from '../adapters/sql/retention.ts';

const clients = Number(process.argv[2] ?? 100_000);
const cycles = Number(process.argv[3] ?? 5);
const MARKER = 'deleted-client-marker';

const duMb = (dir: string): number => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024;

/** Files of the data directory holding `text`, relative to it. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (readFileSync(full).includes(text)) found.push(full.slice(dir.length + 1));
    }
  };
  walk(dir);
  return found;
}

/** Runs `work` and measures the longest event-loop stall meanwhile. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; totalMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  const result = await work();
  const totalMs = performance.now() - start;
  clearInterval(ticker);
  stallMs = Math.max(stallMs, performance.now() - last);
  return { result, stallMs, totalMs };
}

const dir = mkdtempSync(join(tmpdir(), 'retention-bench-'));
const db = await createPgliteClient({ dataDir: dir });
/** The longest single statement of the pass and its text, for telling a batch from a vacuum. */
let slowest = { ms: 0, text: '' };
const timed = <A extends unknown[], R>(run: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
  const start = performance.now();
  const result = await run(...args);
  const ms = performance.now() - start;
  if (ms > slowest.ms) slowest = { ms, text: String(args[0]).trim().split('\n')[0]!.slice(0, 40) };
  return result;
};
const measured = { ...db, query: timed(db.query.bind(db)), exec: timed(db.exec.bind(db)) } as typeof db;
try {
  await migrate(db);
  console.log(`PGlite, ${clients} distinct clients per cycle; data directory ${duMb(dir).toFixed(1)} MB after migration`);
  for (let cycle = 1; cycle <= cycles; cycle++) {
    await db.query(
      `insert into rate_limits (key, count, reset_at)
       select $1::text || '-' || $2::int || '-' || md5(i::text), 1, now() - interval '1 second' from generate_series(1, $3::int) i`,
      [MARKER, cycle, clients],
    );
    await db.query(
      `insert into checkout_sessions (id, sku, channel, url, state, created_at, expires_at)
       select 'cs_' || $1::int || '_' || md5(i::text), 'standard', null, 'https://pay.example.com/' || md5(i::text), 'pending',
              now() - interval '9 days', now() - interval '8 days'
       from generate_series(1, $2::int) i`,
      [cycle, clients],
    );
    slowest = { ms: 0, text: '' };
    const { result, stallMs, totalMs } = await longestStall(() => runRetention(measured, { vacuum: process.env['VACUUM'] !== '0' }));
    await db.exec('checkpoint');
    console.log(
      `cycle ${cycle}: deleted ${result.rateLimitWindows} windows and ${result.checkoutSessions} sessions in ` +
        `${Math.round(totalMs)} ms, longest event-loop stall ${Math.round(stallMs)} ms (slowest statement ` +
        `${Math.round(slowest.ms)} ms: ${slowest.text}); data directory ${duMb(dir).toFixed(1)} MB`,
    );
  }
  const holding = filesHolding(dir, MARKER);
  console.log(`files still holding a deleted key: ${holding.length}${holding.length > 0 ? ` (${holding.join(', ')})` : ''}`);
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
