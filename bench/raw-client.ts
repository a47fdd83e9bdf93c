/**
 * A load generator that can saturate one server core from one client core: keep-alive connections that
 * each send a pre-serialized request, read the answer by its Content-Length, and send the next. Every
 * client address has its request bytes built once, so varying X-Forwarded-For per request costs nothing
 * (autocannon rebuilds each request when its headers change, and tops out near 40k req/s here, below the
 * ceiling: ratios taken with it are flattered towards 1).
 */
import { connect } from 'node:net';
import type { Scenario } from './scenarios.ts';
import { clientAddress } from './scenarios.ts';

/** What one run measured. */
export interface RawResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

/**
 * The request bytes of a scenario, one per client address (or one, for the single over-quota client).
 * The address goes in `clientHeader`: X-Forwarded-For for a server behind a trusted proxy, CF-Connecting-IP
 * for the Worker.
 */
export function requestBytes(scenario: Scenario, port: number, clientHeader = 'X-Forwarded-For'): Buffer[] {
  const count = scenario.clients === 'many' ? 100_000 : 1;
  const body = scenario.body ?? '';
  const head = (i: number) =>
    `${scenario.method} ${scenario.path.replace('{n}', String(i))} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    (body ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` : '');
  return Array.from(
    { length: count },
    (_, i) => Buffer.from(`${head(i)}${clientHeader}: ${scenario.clients === 'many' ? clientAddress(i) : '192.0.2.1'}\r\n\r\n${body}`),
  );
}

let next = 0;
const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH = Buffer.from('content-length: ');
const LENGTH_CAPITALIZED = Buffer.from('Content-Length: ');

/** Latencies in ms and counts per status, kept without allocating per answer. */
interface Tally {
  latencies: Float64Array;
  size: number;
  statuses: Uint32Array;
}

/** The Content-Length of a response head, by bytes (Node and Deno write the name in lower case, Bun not). */
function contentLength(buffer: Buffer, end: number): number {
  let at = buffer.indexOf(LENGTH);
  if (at < 0 || at > end) at = buffer.indexOf(LENGTH_CAPITALIZED);
  if (at < 0 || at > end) return 0;
  let value = 0;
  for (let i = at + LENGTH.length; i < end; i++) {
    const digit = buffer[i]! - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}

function drive(port: number, requests: Buffer[], until: number, tally: Tally) {
  return new Promise<number>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let done = 0;
    let sentAt = 0;
    const send = () => {
      sentAt = performance.now();
      socket.write(requests[next++ % requests.length]!);
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        const end = buffer.indexOf(HEAD_END);
        if (end < 0) return;
        const length = contentLength(buffer, end);
        if (buffer.length < end + 4 + length) return;
        if (buffer[0] !== 72) return reject(new Error('lost the start of an answer: the Content-Length was not read'));
        const status = (buffer[9]! - 48) * 100 + (buffer[10]! - 48) * 10 + (buffer[11]! - 48);
        buffer = buffer.subarray(end + 4 + length);
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
        if (tally.size < tally.latencies.length) tally.latencies[tally.size++] = performance.now() - sentAt;
        done++;
        if (Date.now() >= until) {
          socket.end();
          return resolve(done);
        }
        send();
      }
    });
    socket.on('error', reject);
  });
}

/**
 * Keeps `connections` connections busy for `seconds`.
 *
 * @param port The server's port on 127.0.0.1.
 * @param requests The request bytes to cycle through.
 */
export async function runRaw(port: number, requests: Buffer[], connections: number, seconds: number): Promise<RawResult> {
  const tally: Tally = { latencies: new Float64Array(200_000 * seconds), size: 0, statuses: new Uint32Array(600) };
  const start = Date.now();
  const counts = await Promise.all(
    Array.from({ length: connections }, () => drive(port, requests, start + seconds * 1000, tally)),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const latencies = tally.latencies.subarray(0, tally.size).sort();
  const at = (q: number) => Math.round((latencies[Math.floor(q * (latencies.length - 1))] ?? 0) * 100) / 100;
  const statuses: Record<string, number> = {};
  tally.statuses.forEach((count, code) => count > 0 && (statuses[String(code)] = count));
  return { rps: total / ((Date.now() - start) / 1000), total, p50: at(0.5), p99: at(0.99), statuses };
}
