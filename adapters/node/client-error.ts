/**
 * Answers what node:http cannot parse (bad HTTP, slow clients, oversized headers) with the API's JSON
 * error and rate-limit headers, instead of node's bare status line.
 *
 * @module
 */
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App } from '../../core/app.ts';
import { resolveClientIp } from '../../core/clients/client-ip.ts';
import { ApiError } from '../../core/http/errors.ts';
import type { CoreResponse } from '../../core/http/http.ts';

/** The API error for one of node's client errors; null when nothing should be answered. */
export function apiErrorFor(code: string | undefined): ApiError | null {
  switch (code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', 'The request headers are larger than this server accepts.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request was not received in time.');
    default:
      return new ApiError('malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/** A socket as node:http hands it to `clientError`: `_httpMessage` is the answer being written on it, if any. */
type HttpSocket = Duplex & { remoteAddress?: string; _httpMessage?: ServerResponse | null };

/**
 * Calls `then` once no earlier answer is in flight on the socket. Pipelined requests are answered in
 * order, so an answer to a complete request that precedes the bad bytes goes out first, whole; node
 * attaches the next queued answer as each one finishes. An answer whose own request is incomplete (the
 * error is in its body) is not waited for: the error answer replaces it.
 */
function afterAnswersInFlight(socket: HttpSocket, then: () => void): void {
  const current = socket._httpMessage;
  if (!current || socket.destroyed || (!current.req.complete && !current.headersSent)) then();
  else current.once('close', () => afterAnswersInFlight(socket, then));
}

/** An answer as the raw bytes of an HTTP/1.1 response that closes the connection. */
export function serialize(response: CoreResponse): Buffer {
  const body = Buffer.from(response.body ?? '');
  const headers = { ...response.headers, 'content-length': String(body.length), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  const head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status]}\r\n${lines.join('\r\n')}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

/**
 * Creates a listener for the server's `clientError` event.
 *
 * The client address is the socket's peer: headers could not be read, so X-Forwarded-For is not used
 * even behind a trusted proxy.
 *
 * @param app The core app.
 */
export function createClientErrorListener(app: App): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket: HttpSocket) => {
    const apiError = apiErrorFor(error.code);
    if (!apiError || !socket.writable) {
      socket.destroy();
      return;
    }
    afterAnswersInFlight(socket, () => {
      app.reject(resolveClientIp(socket.remoteAddress ?? '', undefined, null), apiError).then(
        (response) => (socket.writable ? socket.end(serialize(response)) : socket.destroy()),
        () => socket.destroy(),
      );
    });
  };
}
