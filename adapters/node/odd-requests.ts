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
import { canonicalIp, type CidrSet, forwardedClient } from '../../core/clients/client-ip.ts';
import { ApiError } from '../../core/http/errors.ts';
import { createClientErrorListener, serialize } from './client-error.ts';

/** The peer of a connection in canonical form, and whether it is a trusted proxy: known once per socket. */
const PEER = Symbol('peer');
type PeerSocket = IncomingMessage['socket'] & { [PEER]?: { address: string; trusted: boolean } };

/**
 * The client of a parsed request (`resolveClientIp`): X-Forwarded-For is read behind a trusted proxy,
 * as for any request. The peer's part is worked out once per connection, not per request.
 */
export function clientOf(request: IncomingMessage, trusted: CidrSet | null): string {
  const socket = request.socket as PeerSocket;
  let peer = socket[PEER];
  if (peer === undefined) {
    const remote = socket.remoteAddress ?? '';
    const address = canonicalIp(remote) ?? remote;
    // A socket that lost its peer (closed) says nothing worth keeping.
    peer = { address, trusted: trusted !== null && trusted.has(address) };
    if (remote !== '') socket[PEER] = peer;
  }
  if (!peer.trusted) return peer.address;
  const forwarded = request.headers['x-forwarded-for'];
  if (forwarded === undefined) return peer.address;
  return forwardedClient(peer.address, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trusted!);
}

/** The answer to an HTTP/1.1 request without a Host header (RFC 9112 section 3.2: 400). */
export const missingHost = (): ApiError => new ApiError('malformed_request', 'An HTTP/1.1 request must carry a Host header.');

/**
 * The answer to a request with more than one Host header (RFC 9112 section 3.2: 400), or null for one.
 * node:http keeps the first and drops the rest, so they are counted in the raw headers.
 *
 * @param raw The request's raw headers, name and value alternating.
 */
export function hostRepeated(raw: readonly string[]): ApiError | null {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count > 1 ? new ApiError('malformed_request', `An HTTP request must carry one Host header, not ${count}.`) : null;
}

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
    const expectation = new ApiError(
      'expectation_failed',
      `The Expect header ${JSON.stringify(request.headers.expect)} cannot be met; only 100-continue is understood.`,
    );
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
