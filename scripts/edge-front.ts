/**
 * The local stand-in for Cloudflare's edge in front of workerd: a node:http proxy that sets
 * `CF-Connecting-IP` to the connecting socket's address, overwriting whatever the client sent, as the
 * edge does. So per-client behaviour (the rate limit, votes) can be tried locally with real addresses.
 *
 * Given the Worker's body limit, it also reads a request body before forwarding it, as the edge does, and
 * forwards at most limit + 1 bytes of it: the Worker answers 413 to more than the limit whatever follows,
 * and workerd closes a connection whose request body it did not read to the end, which cut the answer
 * off under load (EPIPE on the front's side, then its own 500 or a reset, 3-10% of the time).
 *
 * @module
 */
import { Agent, createServer, type IncomingMessage, request as upstreamRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { internalError } from '../core/http/errors.ts';

/** The address of a socket as the edge reports it: IPv4-mapped IPv6 written as IPv4. */
export function connectingIp(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** A listening front. */
export interface EdgeFront {
  server: Server;
  port: number;
  /** http://host:port, as bound. */
  url: string;
  /** Stops accepting connections and closes idle ones; resolves when the server is closed. */
  close(): Promise<void>;
}

/** Headers the front answers itself with when workerd cannot be reached. */
function unavailable(response: ServerResponse): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const answer = internalError().toResponse();
  const body = typeof answer.body === 'string' || answer.body === null ? (answer.body ?? '') : Buffer.from(answer.body);
  response.writeHead(answer.status, { ...answer.headers, 'cache-control': 'no-store' });
  response.end(body);
}

/** Reads a request body up to `max` bytes; the rest is read and dropped, so the client is never cut off. */
function readUpTo(request: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size >= max) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) resolve(Buffer.concat(chunks).subarray(0, max));
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Whether a request announces a body (Content-Length other than 0, or Transfer-Encoding). */
const hasBody = (request: IncomingMessage) =>
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') || request.headers['transfer-encoding'] !== undefined;

/**
 * Starts the front.
 *
 * @param upstream Where workerd listens, once it does (requests that arrive earlier wait for it).
 * @param port The port to listen on (0: one the system picks).
 * @param host The address to listen on.
 * @param onError Where a failed forward is reported.
 * @param bodyLimit The Worker's body limit: bodies are read first and at most this + 1 bytes forwarded;
 *   streamed through whole when omitted.
 */
export async function startEdgeFront(
  upstream: Promise<{ port: number }>,
  port: number,
  host: string,
  onError: (error: unknown) => void,
  bodyLimit?: number,
): Promise<EdgeFront> {
  const agent = new Agent({ keepAlive: true });
  upstream.catch(() => undefined);
  const forward = (request: IncomingMessage, response: ServerResponse, target: { port: number }, body?: Buffer) => {
    const headers: Record<string, string | string[] | undefined> = { ...request.headers, 'cf-connecting-ip': connectingIp(request.socket.remoteAddress) };
    if (body !== undefined) {
      headers['content-length'] = String(body.length);
      delete headers['transfer-encoding'];
    }
    let answered: IncomingMessage | null = null;
    const outgoing = upstreamRequest(
      { host: '127.0.0.1', port: target.port, method: request.method, path: request.url, headers, agent },
      (answer) => {
        answered = answer;
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      // A client that went away takes its forward with it, and an answer already whole needs nothing more.
      if (response.destroyed || answered?.complete) return;
      onError(error);
      unavailable(response);
    });
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    if (body !== undefined) outgoing.end(body);
    else request.pipe(outgoing);
  };

  const server = createServer((request, response) => {
    const body = bodyLimit !== undefined && hasBody(request) ? readUpTo(request, bodyLimit + 1) : undefined;
    Promise.all([upstream, body]).then(
      ([target, read]) => forward(request, response, target, read),
      (error: unknown) => {
        onError(error);
        unavailable(response);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${shown}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive connections turn idle as their last answer goes out: close them as they do.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          agent.destroy();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
