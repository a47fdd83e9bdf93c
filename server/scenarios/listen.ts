/**
 * The scenario server on node:http: each request read whole (64 KiB at most: no scenario takes more),
 * handed over as a web Request from the peer's address, and its answer written back.
 *
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, Logger } from '../../core/ports/ports.ts';
import { createScenarioServer, type ScenarioServer } from './server.ts';

const MAX_BODY = 64 * 1024;

export interface ListeningScenarios {
  /** Where it listens, e.g. http://127.0.0.1:8787. */
  url: string;
  server: ScenarioServer;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | null> {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new RangeError('body over 64 KiB');
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The peer's address as the apps take it: an IPv4 address mapped into IPv6 as IPv4. */
const peerOf = (request: IncomingMessage) => (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

/**
 * Starts the scenario server on `host` and `port` (0: any free port).
 *
 * @param options Where to listen, and the clock and logger of the scenarios.
 * @returns Its address, the scenarios, and a close that stops it.
 */
export async function listenScenarios(options: { host: string; port: number; clock?: Clock; logger?: Logger }): Promise<ListeningScenarios> {
  let handler: ScenarioServer | null = null;
  const http = createServer((request, response) => {
    void (async () => {
      try {
        const body = await bodyOf(request);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const answer = await handler!.handle(
          new Request(new URL(request.url ?? '/', url), { method: request.method ?? 'GET', headers, body }),
          peerOf(request),
        );
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => void (out[name] = value));
        response.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
        response.end(request.method === 'HEAD' ? undefined : bytes);
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${error instanceof Error ? error.message : String(error)}\n`);
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = http.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  handler = await createScenarioServer({
    baseUrl: url,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return {
    url,
    server: handler,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
