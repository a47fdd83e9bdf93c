/**
 * Throughput of the ways to serve the core: bare node:http (the ceiling), the direct node:http binding,
 * a web Request/Response bridge over node:http, and Deno.serve / Bun.serve with their bindings, plus the
 * direct node:http binding under Deno's and Bun's node:http emulation.
 *
 * Each server runs as its own process on 127.0.0.1; a raw-socket client keeps CONNECTIONS keep-alive
 * connections busy with GET /api/v1/version for SECONDS after a warm-up, ROUNDS times, and the median
 * requests per second is reported. Bounded in count and time; it stops by itself.
 *
 * Usage: node --import tsx bench/bridge.ts
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, ROOT } from '../test/_spawn.ts';

const CONNECTIONS = 32;
const SECONDS = 3;
const WARMUP_SECONDS = 1;
const ROUNDS = 5;
const REQUEST = Buffer.from('GET /api/v1/version HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\r\n');

const BIN = join(ROOT, 'node_modules/.bin');
const SERVERS: { name: string; command: string[] }[] = [
  { name: 'node  bare node:http', command: [process.execPath, '--import', 'tsx', 'bench/bridge-server.ts', 'bare'] },
  { name: 'node  direct (createNodeListener)', command: [process.execPath, '--import', 'tsx', 'bench/bridge-server.ts', 'direct'] },
  { name: 'node  web Request/Response bridge', command: [process.execPath, '--import', 'tsx', 'bench/bridge-server.ts', 'bridge'] },
  { name: 'deno  Deno.serve (createDenoHandler)', command: [join(BIN, 'deno'), 'run', '-A', 'bench/bridge-server.ts', 'native'] },
  { name: 'deno  node:http emulation, direct', command: [join(BIN, 'deno'), 'run', '-A', 'bench/bridge-server.ts', 'direct'] },
  { name: 'bun   Bun.serve (createBunHandler)', command: [join(BIN, 'bun'), 'bench/bridge-server.ts', 'native'] },
  { name: 'bun   node:http emulation, direct', command: [join(BIN, 'bun'), 'bench/bridge-server.ts', 'direct'] },
];

/** Counts complete responses on one keep-alive connection until `until`. */
function drive(port: number, until: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffer: Buffer = Buffer.alloc(0);
    let done = 0;
    socket.on('connect', () => socket.write(REQUEST));
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(`unexpected answer: ${head.split('\r\n')[0]}`));
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
        if (Number.isNaN(length)) return reject(new Error('no content-length'));
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.subarray(end + 4 + length);
        done++;
        if (Date.now() >= until) {
          socket.end();
          return resolve(done);
        }
        socket.write(REQUEST);
      }
    });
    socket.on('error', reject);
  });
}

async function measure(port: number, seconds: number): Promise<number> {
  const start = Date.now();
  const counts = await Promise.all(Array.from({ length: CONNECTIONS }, () => drive(port, start + seconds * 1000)));
  return counts.reduce((a, b) => a + b, 0) / ((Date.now() - start) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: { name: string; rps: number }[] = [];
for (const server of SERVERS) {
  const port = await freePort();
  const child = spawn(server.command[0]!, [...server.command.slice(1), String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`${server.name} exited with ${code}`)));
  });
  const rounds: number[] = [];
  try {
    await measure(port, WARMUP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) rounds.push(await measure(port, SECONDS));
  } finally {
    child.kill('SIGTERM');
  }
  results.push({ name: server.name, rps: median(rounds) });
  process.stdout.write(`${server.name.padEnd(40)} ${Math.round(median(rounds)).toString().padStart(7)} req/s  (${rounds.map(Math.round).join(', ')})\n`);
}

const bare = results[0]!.rps;
process.stdout.write('\nrelative to bare node:http:\n');
for (const { name, rps } of results) process.stdout.write(`${name.padEnd(40)} ${(rps / bare).toFixed(2)}\n`);
const direct = results[1]!.rps;
const bridge = results[2]!.rps;
process.stdout.write(`\nthe web bridge on Node costs ${(100 * (1 - bridge / direct)).toFixed(0)}% of the direct binding's throughput\n`);
