/**
 * The scenario server on node:http: each request read whole (64 KiB at most: no scenario takes more),
 * handed over as a web Request from the peer's address, and its answer written back.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
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

/** An answer of the scenario server's own (not a scenario's): JSON, as the API's errors are. */
function refuse(response: ServerResponse, status: number, code: string, message: string, resolution: string): void {
  const body = Buffer.from(JSON.stringify({ code, message, resolution }));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length) });
  response.end(body);
}

/**
 * Starts the scenario server on `host` and `port` (0: any free port).
 *
 * @param options Where to listen, the clock and logger of the scenarios, and (for tests) how the scenarios
 *   are made once the address is known.
 * @returns Its address, the scenarios, and a close that stops it.
 */
export async function listenScenarios(options: {
  host: string;
  port: number;
  clock?: Clock;
  logger?: Logger;
  make?: (baseUrl: string) => Promise<ScenarioServer>;
}): Promise<ListeningScenarios> {
  // The scenarios need the address (their links name it), known once listening: a request that comes
  // before they are made waits for them.
  let made: (server: ScenarioServer) => void = () => {};
  const ready = new Promise<ScenarioServer>((resolve) => (made = resolve));
  const http = createServer((request, response) => {
    void (async () => {
      let body: Uint8Array<ArrayBuffer> | null;
      try {
        body = await bodyOf(request);
      } catch {
        // The rest of the body is not read: the connection ends with this answer.
        response.shouldKeepAlive = false;
        refuse(
          response,
          413,
          'payload_too_large',
          'The request body is larger than 64 KiB.',
          'No scenario takes a body that large: send the request as the app would.',
        );
        return;
      }
      try {
        const handler = await ready;
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const answer = await handler.handle(
          new Request(new URL(request.url ?? '/', url), { method: request.method ?? 'GET', headers, body }),
          peerOf(request),
        );
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => void (out[name] = value));
        response.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
        response.end(request.method === 'HEAD' ? undefined : bytes);
      } catch (error) {
        options.logger?.error('scenario server: a request failed', { error: error instanceof Error ? error.message : String(error) });
        if (response.headersSent) response.destroy();
        else refuse(response, 500, 'internal_error', 'The scenario server failed to answer this request.', 'Report it with the request that caused it.');
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = http.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const make = options.make ??
    ((baseUrl: string) =>
      createScenarioServer({
        baseUrl,
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      }));
  let handler: ScenarioServer;
  try {
    handler = await make(url);
  } catch (error) {
    http.close();
    http.closeAllConnections();
    throw error;
  }
  made(handler);
  return {
    url,
    server: handler,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        // A client that keeps its connection open (or is still sending a refused body) holds no stop.
        http.closeAllConnections();
      }),
  };
}
