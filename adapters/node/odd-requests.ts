/**
 * Answers for the requests node:http would answer itself, without JSON or rate-limit headers, or not at
 * all: unparseable ones (`clientError`), an `Expect` other than 100-continue (`checkExpectation`, node's
 * bare 417) and CONNECT (`connect`, node closes the socket). Each gets the API's JSON error and the
 * rate-limit headers, and is counted against the client's quota like any other request.
 *
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App } from '../../core/app.ts';
import { resolveClientIp, type CidrSet } from '../../core/client-ip.ts';
import { ApiError } from '../../core/errors.ts';
import { createClientErrorListener, serialize } from './client-error.ts';

/** The client of a parsed request: X-Forwarded-For is read behind a trusted proxy, as for any request. */
export function clientOf(request: IncomingMessage, trusted: CidrSet | null): string {
  const forwarded = trusted ? request.headers['x-forwarded-for'] : undefined;
  return resolveClientIp(request.socket.remoteAddress ?? '', Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trusted);
}

/** The answer to an HTTP/1.1 request without a Host header (RFC 9112 section 3.2: 400). */
export const missingHost = (): ApiError => new ApiError('malformed_request', 'An HTTP/1.1 request must carry a Host header.');

/**
 * Registers the answers on a server (created with `requireHostHeader: false`, so that a request without
 * Host reaches the request listener, which answers it).
 *
 * @param server The node:http server.
 * @param app The core app.
 * @param trustedProxies Proxies whose X-Forwarded-For is believed.
 */
export function answerOddRequests(server: Server, app: App, trustedProxies: CidrSet | null = null): void {
  server.on('clientError', createClientErrorListener(app));
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = new ApiError('expectation_failed', `The Expect header ${JSON.stringify(request.headers.expect)} cannot be met; only 100-continue is understood.`);
    app.reject(clientOf(request, trustedProxies), expectation).then(
      (answer) => {
        // The body the client may send anyway is never read: the connection ends with this answer.
        const body = Buffer.from(answer.body ?? '');
        response.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length), connection: 'close' });
        response.end(body);
        response.once('finish', () => request.socket.destroySoon());
      },
      () => response.destroy(),
    );
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const refusal = new ApiError('method_not_allowed', 'CONNECT is not allowed: this server is not a proxy.');
    app.reject(clientOf(request, trustedProxies), refusal).then(
      (answer) => (socket.writable ? socket.end(serialize(answer)) : socket.destroy()),
      () => socket.destroy(),
    );
  });
}
