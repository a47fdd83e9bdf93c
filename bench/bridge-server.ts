/**
 * A server for bench/bridge.ts: one app with an unreachable rate limit, served in one of four ways.
 *
 * Usage: <runtime> bench/bridge-server.ts <bare|direct|bridge|native> <port>
 *   bare    node:http answering a fixed body (the ceiling)
 *   direct  node:http with createNodeListener (the core's request built straight from IncomingMessage)
 *   bridge  node:http, a web Request built per call, createFetchHandler, the Response written back
 *   native  Deno.serve or Bun.serve with the runtime's binding
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import * as v from 'valibot';
import { type BunHandler, createBunHandler } from '../adapters/bun/index.ts';
import { createDenoHandler, type DenoHandler } from '../adapters/deno/index.ts';
import { createFetchHandler } from '../adapters/fetch/index.ts';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createNodeListener } from '../adapters/node/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { createApp } from '../core/app.ts';
import { SiteContentSchema } from '../core/schemas/content.ts';

interface Runtimes {
  Deno?: { serve(options: { port: number; hostname: string; onListen(): void }, handler: DenoHandler): unknown };
  Bun?: { serve(options: { port: number; hostname: string; fetch: BunHandler }): unknown };
}

const [mode = 'direct', portText = '0'] = process.argv.slice(2);
const port = Number(portText);
const config = JSON.parse(readFileSync(new URL('../example/config.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const storage = createMemoryStorage();
const app = await createApp({
  content: v.parse(SiteContentSchema, { offer: config['offer'], download: config['download'], roadmap: config['roadmap'] }),
  version: { current: () => '2.4.1' },
  storage,
  gateway: createSimulatorGateway({ storage, publicBaseUrl: 'http://localhost:8080' }),
  rateLimit: { name: 'public-api', limit: 1e9, windowSeconds: 60 },
  logger: { info: () => undefined, warn: () => undefined, error: (message) => console.error(message) },
});

/** node:http -> web Request -> fetch handler -> web Response -> node:http, as fetch-first frameworks do. */
function bridgeListener(): (request: IncomingMessage, response: ServerResponse) => void {
  const handle = createFetchHandler(app);
  return (request, response) => {
    const method = request.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(request) as ReadableStream<Uint8Array>);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const webRequest = new Request(
      `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`,
      { method, headers, body, duplex: 'half' } as RequestInit,
    );
    Promise.resolve(handle(webRequest, request.socket.remoteAddress ?? '')).then(async (answer) => {
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => (headers[name] = value));
      const bytes = new Uint8Array(await answer.arrayBuffer());
      headers['content-length'] = String(bytes.length);
      response.writeHead(answer.status, headers);
      response.end(bytes);
    }, () => response.destroy());
  };
}

const runtimes = globalThis as Runtimes;
const ready = () => console.log(`ready ${mode}`);
if (mode === 'native' && runtimes.Deno) {
  runtimes.Deno.serve({ port, hostname: '127.0.0.1', onListen: ready }, createDenoHandler(app));
} else if (mode === 'native' && runtimes.Bun) {
  runtimes.Bun.serve({ port, hostname: '127.0.0.1', fetch: createBunHandler(app) });
  ready();
} else {
  const fixed = JSON.stringify({ version: '2.4.1' });
  const listener = mode === 'bare'
    ? (_request: IncomingMessage, response: ServerResponse) =>
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(fixed.length) }).end(fixed)
    : mode === 'bridge'
    ? bridgeListener()
    : createNodeListener(app);
  createServer(listener).listen(port, '127.0.0.1', ready);
}
