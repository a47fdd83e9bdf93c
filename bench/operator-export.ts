/**
 * Operator work against the public API on PGlite: the latency of GET /api/v1/pricing, one request after
 * another on a keep-alive connection, while the operator downloads the Inbox as CSV (issue 32, F1). Each
 * figure is printed: the export's time and size, and pricing's p50, p99 and slowest answer meanwhile (and
 * idle, before it). PGlite runs in memory, migrated as the server migrates it, with `entries` feedback
 * entries of 60 to 200 characters, and one clean-up pass after them, as the server runs every minute.
 *
 * Usage: node --import tsx bench/operator-export.ts [entries, 300000]
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { openPgliteStorage } from '../adapters/pglite/index.ts';
import { createNodeListener } from '../adapters/node/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { operatorPages } from '../adapters/operator-pages/index.ts';
import { createApp, SiteContentSchema } from '../core/index.ts';

const entries = Number(process.argv[2] ?? 300_000);
const TOKEN = 'bench-operator-token-'.padEnd(48, 'x');

const { offer, download, roadmap } = JSON.parse(readFileSync('example/config.json', 'utf8'));
const content = v.parse(SiteContentSchema, { offer, download, roadmap });
const { storage } = await openPgliteStorage({});
const publicBaseUrl = 'http://127.0.0.1';
const gateway = createSimulatorGateway({ storage, publicBaseUrl });
const quiet = { info() {}, warn() {}, error: (message: string, fields?: unknown) => console.error(message, fields) };
const app = await createApp({
  content,
  storage,
  gateway,
  publicBaseUrl,
  logger: quiet,
  operatorToken: TOKEN,
  // The pages are an adapter a host adds (the standalone server does): the export is one of them.
  operatorRoutes: operatorPages,
  rateLimit: { name: 'bench', limit: 1e9, windowSeconds: 60 },
  version: { current: () => '2.4.1' },
});

const started = performance.now();
await storage.client.exec(`insert into feedback (type, description, received_at)
select 'general', repeat('a converter review ', 3 + (n % 8)), now() - make_interval(secs => n) from generate_series(1, ${entries}) n`);
console.log(`${entries} entries stored in ${((performance.now() - started) / 1000).toFixed(1)} s`);
// One clean-up pass, as the standalone server runs within its first minute: on PGlite it vacuums and analyzes.
const maintained = performance.now();
await storage.runRetention();
console.log(`clean-up pass in ${((performance.now() - maintained) / 1000).toFixed(2)} s`);

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const publicServer = createServer(createNodeListener(app));
const operatorServer = createServer(createNodeListener(app.operator!));
const publicUrl = await listen(publicServer);
const operatorUrl = await listen(operatorServer);

/** Requests that failed (a reset connection, a status other than 200), by what went wrong. */
const failures = new Map<string, number>();

/** Pricing answers, one after another, until `until` settles: each latency in ms (a failure's too). */
async function pricingWhile(until: Promise<unknown> | null, count = 0): Promise<number[]> {
  const latencies: number[] = [];
  let done = false;
  void until?.finally(() => (done = true));
  while (until ? !done : latencies.length < count) {
    const t = performance.now();
    try {
      const answer = await fetch(`${publicUrl}/api/v1/pricing`);
      await answer.arrayBuffer();
      if (answer.status !== 200) failures.set(`status ${answer.status}`, (failures.get(`status ${answer.status}`) ?? 0) + 1);
    } catch (error) {
      const what = String((error as { cause?: { code?: string } }).cause?.code ?? error);
      failures.set(what, (failures.get(what) ?? 0) + 1);
    }
    latencies.push(performance.now() - t);
  }
  return latencies;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const summary = (name: string, latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${name}: ${sorted.length} answers, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, max ${
      sorted.at(-1)?.toFixed(1)
    } ms`,
  );
};

try {
  summary('pricing, idle', await pricingWhile(null, 500));
  const signIn = await fetch(`${operatorUrl}/pages/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }).toString(),
    redirect: 'manual',
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const t = performance.now();
  const exported = fetch(`${operatorUrl}/pages/inbox/export.csv`, { headers: { cookie } }).then(async (answer) => {
    const bytes = (await answer.arrayBuffer()).byteLength;
    return { status: answer.status, bytes, seconds: (performance.now() - t) / 1000 };
  });
  const during = await pricingWhile(exported);
  const { status, bytes, seconds } = await exported;
  console.log(`export: ${status}, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s`);
  summary('pricing, during the export', during);
  if (failures.size > 0) console.log(`failed requests: ${JSON.stringify(Object.fromEntries(failures))}`);
} finally {
  publicServer.close();
  operatorServer.close();
  await storage.close();
}
