/**
 * The node:http binding: maps IncomingMessage straight onto the core's request and writes the answer
 * with writeHead/end, with no web Request/Response in between.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from '../../core/app.ts';
import type { CidrSet } from '../../core/clients/client-ip.ts';
import { internalError } from '../../core/http/errors.ts';
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';
import type { Answer } from '../../core/http/maybe.ts';
import { clientOf, hostRepeated, missingHost } from './odd-requests.ts';
import { leaveLine, MAX_IN_FLIGHT, PIPELINE, type PipelinedSocket, waitInLine } from './pipeline.ts';
import { originForm } from './request-target.ts';

export interface NodeHandlerOptions {
  /** Proxies whose X-Forwarded-For is believed; none by default. */
  trustedProxies?: CidrSet | null;
  /** Where a failure to write an answer is reported. */
  onError?: (error: unknown) => void;
}

/** A request listener for `http.createServer`. */
export type NodeListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Whether a request announces a body (RFC 9112: Content-Length other than 0, or Transfer-Encoding). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Node's Buffer view of each body the core serialized once (pricing, the discovery documents): node
 * would otherwise make a new view of the Uint8Array for every answer that sends it.
 */
const buffers = new WeakMap<Uint8Array, Buffer>();

function bufferOf(body: Uint8Array): Buffer {
  if (Buffer.isBuffer(body)) return body;
  let buffer = buffers.get(body);
  if (buffer === undefined) buffers.set(body, buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  return buffer;
}

/** Resolves when the socket takes more, or is gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}

/** Writes a streamed body chunk by chunk, waiting while the socket is full; a failure cuts the answer. */
async function pump(response: ServerResponse, stream: AsyncIterable<string>): Promise<void> {
  try {
    for await (const chunk of stream) {
      if (response.destroyed) return;
      if (!response.write(chunk)) await drained(response);
    }
    response.end();
  } catch {
    response.destroy();
  }
}

/** The answer when node refuses a header value of the real one (a stored address with a CR): a 500 JSON body. */
const REFUSED_HEADER = internalError().toResponse();
const OWN_HEADERS = new Set(['location', 'content-length', 'content-type', 'content-digest', 'signature', 'signature-input', 'vary']);

/**
 * Writes an answer. A header value node refuses (ERR_INVALID_CHAR, ERR_HTTP_INVALID_HEADER_VALUE) throws
 * before anything is sent: that one request is answered 500 instead, with the request id, and reported.
 */
function write(response: ServerResponse, answer: CoreResponse, closeAfter: boolean, head: boolean, onError: (error: unknown) => void): void {
  try {
    writeAnswer(response, answer, closeAfter, head);
  } catch (error) {
    if (response.headersSent) throw error;
    const requestId = answer.headers['x-request-id'];
    onError(
      new Error(`a header of the answer (status ${answer.status}, request ${requestId ?? 'unknown'}) was refused; answered 500 instead: ${String(error)}`),
    );
    // The answer's other headers (rate limit, request id, CORS) stay; those node refuses and those of the answer's own body go.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!OWN_HEADERS.has(name) && /^[\t\x20-\x7e\x80-\xff]*$/.test(value)) headers[name] = value;
    }
    Object.assign(headers, REFUSED_HEADER.headers);
    writeAnswer(response, { ...REFUSED_HEADER, headers, body: head ? null : REFUSED_HEADER.body }, closeAfter, head);
  }
}

function writeAnswer(response: ServerResponse, answer: CoreResponse, closeAfter: boolean, head: boolean): void {
  const { headers } = answer;
  if (answer.stream && !head) {
    if (closeAfter) headers['connection'] = 'close';
    response.writeHead(answer.status, headers);
    void pump(response, answer.stream);
    return;
  }
  // Encoded once here: node would otherwise measure the string, then encode it again to send it.
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body === null ? null : bufferOf(answer.body);
  if (closeAfter) headers['connection'] = 'close';
  if (body !== null) headers['content-length'] = String(body.length);
  // A bodiless answer (302) says so; without it node would frame an empty chunked body. HEAD keeps no length.
  else if (!head && answer.status !== 204 && answer.status !== 304) headers['content-length'] = '0';
  response.writeHead(answer.status, headers);
  response.end(body ?? undefined);
}

/** Writes an answer; when the body was left unread, the connection is closed once it is out. */
function send(request: IncomingMessage, response: ServerResponse, answer: CoreResponse, head: boolean, closeAfter: boolean, onError: (error: unknown) => void) {
  write(response, answer, closeAfter, head, onError);
  if (closeAfter) response.once('finish', () => request.socket.destroySoon());
}

/**
 * Creates the request listener.
 *
 * @param app The core app.
 * @param options Trusted proxies and error reporting.
 */
export function createNodeListener(app: App, options: NodeHandlerOptions = {}): NodeListener {
  const trusted = options.trustedProxies ?? null;
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  const readLimit = app.bodyLimit + 1;

  const fail = (response: ServerResponse, error: unknown) => {
    onError(error);
    response.destroy();
  };

  // A synchronous answer (static content, counters in memory) is written at once.
  const run = (request: IncomingMessage, response: ServerResponse, core: CoreRequest, closeAfter: boolean) => {
    const socket = request.socket as PipelinedSocket;
    const line = socket[PIPELINE];
    if (line !== undefined && line.inFlight >= MAX_IN_FLIGHT) {
      waitInLine(socket, line, () => run(request, response, core, closeAfter));
      return;
    }
    let answer: Answer;
    try {
      answer = app.handle(core);
    } catch (error) {
      fail(response, error);
      return;
    }
    if (!(answer instanceof Promise)) {
      send(request, response, answer, core.method === 'HEAD', closeAfter, onError);
      return;
    }
    const counted = line ?? (socket[PIPELINE] = { inFlight: 0, waiting: [], paused: false });
    counted.inFlight++;
    answer.then(
      (ready) => {
        send(request, response, ready, core.method === 'HEAD', closeAfter, onError);
        leaveLine(socket, counted);
      },
      (error: unknown) => {
        fail(response, error);
        leaveLine(socket, counted);
      },
    );
  };

  /**
   * Reads the body, then answers: all of it, or the first `readLimit` bytes with the rest left unread
   * (the connection then closes once the answer is out).
   */
  const readBody = (request: IncomingMessage, response: ServerResponse, core: { body: Uint8Array | undefined } & CoreRequest) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const done = (truncated: boolean) => {
      finished = true;
      // The error listener stays: a reset after the body is in must not become an uncaught 'error'.
      request.off('data', onData).off('end', onEnd);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      core.body = truncated ? body.subarray(0, readLimit) : body;
      if (truncated) request.pause();
      run(request, response, core, truncated);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= readLimit) done(true);
    };
    const onEnd = () => done(false);
    const onError = () => {
      if (finished) return;
      finished = true;
      request.off('data', onData).off('end', onEnd);
      response.destroy();
    };
    request.on('data', onData).on('end', onEnd).on('error', onError);
  };

  return (request, response) => {
    const url = originForm(request.url ?? '/');
    const mark = url.indexOf('?');
    const core = {
      method: request.method ?? 'GET',
      path: mark < 0 ? url : url.slice(0, mark),
      query: mark < 0 ? undefined : url.slice(mark + 1),
      headers: request.headers,
      body: undefined as Uint8Array | undefined,
      clientIp: clientOf(request, trusted),
      // node:https and tls sockets say so; the operator pages make their cookie Secure then.
      tls: (request.socket as { encrypted?: boolean }).encrypted === true,
      // Set by the app; present from the start so the object keeps one shape.
      requestId: undefined as string | undefined,
      clientKey: undefined as string | undefined,
    };
    const host = request.headers.host === undefined ? (request.httpVersion === '1.1' ? missingHost() : null) : hostRepeated(request.rawHeaders);
    if (host !== null) {
      // No Host reaches here only on a server created with requireHostHeader: false (see answerOddRequests);
      // node:http keeps the first of several Host headers, which RFC 9112 says to refuse.
      app.reject(core.clientIp, host).then(
        (answer) => {
          const head = core.method === 'HEAD';
          send(request, response, head ? { ...answer, body: null } : answer, head, true, onError);
        },
        (error: unknown) => fail(response, error),
      );
      return;
    }
    if (!hasBody(request)) {
      run(request, response, core, false);
      return;
    }
    readBody(request, response, core);
  };
}
