/**
 * A flood of distinct `since` values against the changelog (issue 53): 300 releases live for everyone and
 * 600 shipped roadmap items with 2,000-character descriptions, then rounds of GET /api/v1/changelog with
 * `since` rotating over 64 versions (and values between them), one request after another on a socket,
 * with a bystander's GET /api/v1/version after each. Prints the changelog's p50/p99, the bystander's
 * p50/p99/max, the largest page, and the process's resident memory before and after. Memory storage, in
 * process, one server; nothing else should run meanwhile.
 *
 * Usage: node --import tsx bench/changelog-flood.ts [requests, 2000]
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createNodeListener } from '../adapters/node/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { createApp, SiteContentSchema } from '../core/index.ts';

const requests = Number(process.argv[2] ?? 2000);
const TOKEN = 'bench-operator-token-'.padEnd(48, 'x');
const { offer, download, roadmap } = JSON.parse(readFileSync('example/config.json', 'utf8'));
const content = v.parse(SiteContentSchema, { offer, download, roadmap });
const storage = createMemoryStorage();
const publicBaseUrl = 'http://127.0.0.1';
const app = await createApp({
  content,
  storage,
  gateway: createSimulatorGateway({ storage, publicBaseUrl }),
  publicBaseUrl,
  logger: { info() {}, warn() {}, error: (message: string) => console.error(message) },
  operatorToken: TOKEN,
  rateLimit: { name: 'bench', limit: 1e9, windowSeconds: 60 },
  version: { current: () => '1.0.0' },
});

/** The operator API in process (no socket): the set-up is not what is measured. */
async function operate(method: string, path: string, json: unknown): Promise<void> {
  const answer = await app.operator!.handle({
    method,
    path,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
    clientIp: '127.0.0.1',
  });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status}`);
}

const versions = Array.from({ length: 300 }, (_, i) => `2.${Math.floor(i / 10)}.${i % 10}`);
for (const version of versions) {
  await operate('POST', '/releases', { version, msiUrl: `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`, rolloutPercent: 100 });
}
const description = 'A converter feature described at length. '.repeat(49).slice(0, 2000);
for (let i = 0; i < 600; i++) {
  await operate('POST', '/roadmap', { title: `Feature ${i}`, description, category: 'formats', release_version: versions[i % versions.length] });
}

const server = createServer(createNodeListener(app));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const rss = () => process.memoryUsage().rss / 2 ** 20;

/** One GET's latency in ms and its body's size in bytes. */
async function timed(path: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const answer = await fetch(`${base}${path}`);
  const bytes = (await answer.arrayBuffer()).byteLength;
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
  return { ms: performance.now() - started, bytes };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const idle = [];
for (let i = 0; i < 200; i++) idle.push((await timed('/api/v1/version')).ms);
const before = rss();
const feed: number[] = [];
const bystander: number[] = [];
let largest = 0;
// 64 releases, each asked as itself and as a value between it and the next (128 distinct since texts).
const sinces = versions.slice(0, 64).flatMap((version) => [version, `${version}.1`]);
for (let i = 0; i < requests; i++) {
  const page = await timed(`/api/v1/changelog?since=${sinces[i % sinces.length]}`);
  feed.push(page.ms);
  largest = Math.max(largest, page.bytes);
  bystander.push((await timed('/api/v1/version')).ms);
}
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(
  `${versions.length} releases, 600 shipped items of ${description.length} characters; ${requests} changelog requests over ${sinces.length} since values`,
);
console.log(`changelog: p50 ${ms(quantile(feed, 0.5))}, p99 ${ms(quantile(feed, 0.99))}; largest page ${(largest / 2 ** 10).toFixed(0)} KiB`);
console.log(
  `bystander GET /version: idle p50 ${ms(quantile(idle, 0.5))}; during p50 ${ms(quantile(bystander, 0.5))}, p99 ${ms(quantile(bystander, 0.99))}, max ${
    ms(Math.max(...bystander))
  }`,
);
console.log(`resident memory: ${before.toFixed(0)} MB before the flood, ${rss().toFixed(0)} MB after`);
server.close();
