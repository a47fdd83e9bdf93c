/**
 * The web-standard binding: a `(request, clientIp) => Promise<Response>` handler over the core, for every
 * fetch-style host (Deno, Bun, Cloudflare Workers, Next.js route handlers, Node frameworks that speak fetch).
 *
 * @module
 */
import type { App } from '../../core/app.ts';
import { type CidrSet, resolveClientIp } from '../../core/clients/client-ip.ts';
import { internalError } from '../../core/http/errors.ts';
import type { CoreResponse, HeaderMap } from '../../core/http/http.ts';
import { andThen, type Answer } from '../../core/http/maybe.ts';

/**
 * Answers one web Request; `clientIp` is the peer address the host saw (never a client-supplied header).
 * The Response comes at once when nothing has to wait (memory storage, static content), else a promise.
 */
export type FetchHandler = (request: Request, clientIp: string) => Response | Promise<Response>;

export interface FetchHandlerOptions {
  /** Proxies whose X-Forwarded-For is believed; none by default. */
  trustedProxies?: CidrSet | null;
}

/**
 * Reads at most `max` bytes of a body stream and cancels the rest, so an oversized upload costs no more
 * than the limit.
 *
 * @param body The request body stream.
 * @param max The most bytes to keep.
 * @returns The bytes read, at most `max` of them.
 */
export async function readBodyUpTo(body: ReadableStream<Uint8Array>, max: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    if (size >= max) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= bytes.length) break;
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Bodies the core keeps encoded (static documents, cached errors), decoded once each; null: not UTF-8. */
const decoded = new WeakMap<Uint8Array, string | null>();

function decodedOnce(body: Uint8Array): string | null {
  let text = decoded.get(body);
  if (text === undefined) {
    try {
      text = utf8.decode(body);
    } catch {
      text = null;
    }
    decoded.set(body, text);
  }
  return text;
}

/** A streamed body as a web stream; a failure errors it, so the client sees an incomplete body. */
function webStream(stream: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/**
 * A body as a web BodyInit. UTF-8 bytes of a typed answer go as their text: a runtime takes a string as
 * it is, while bytes are copied into every Response (the spec's rule for BufferSource).
 */
function bodyInit(answer: CoreResponse): BodyInit | null {
  if (answer.stream) return webStream(answer.stream);
  const { body } = answer;
  if (body === null || typeof body === 'string') return body;
  const text = answer.headers['content-type'] === undefined ? null : decodedOnce(body);
  if (text !== null) return text;
  return body.buffer instanceof ArrayBuffer ? new Uint8Array(body.buffer, body.byteOffset, body.length) : body.slice();
}

/**
 * The web Response for a core answer. A header value the runtime refuses (a stored address with a CR)
 * makes that one answer a 500 JSON body, reported on the console; the handler keeps serving.
 */
export function toWebResponse(answer: CoreResponse): Response {
  try {
    return new Response(bodyInit(answer), { status: answer.status, headers: answer.headers });
  } catch (error) {
    console.error(`a header of the answer (status ${answer.status}) was refused; answered 500 instead: ${String(error)}`);
    const failed = internalError().toResponse();
    const requestId = answer.headers['x-request-id'];
    const headers: Record<string, string> = { ...failed.headers, 'cache-control': 'no-store' };
    if (requestId !== undefined && /^[\x21-\x7e]{1,200}$/.test(requestId)) headers['x-request-id'] = requestId;
    return new Response(bodyInit(failed), { status: 500, headers });
  }
}

/** Splits a request URL into its path and raw query, as node:http would give them. */
function splitUrl(url: string): { path: string; query: string | undefined } {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return { path: '/', query: undefined };
  const mark = url.indexOf('?', start);
  return mark < 0 ? { path: url.slice(start), query: undefined } : { path: url.slice(start, mark), query: url.slice(mark + 1) };
}

/**
 * Request headers as the core reads them (lower-case names), looked up in the web Headers on demand: the
 * core asks for two or three per request, and copying every header cost more on Deno and Bun.
 */
const HEADER_VIEW: ProxyHandler<Headers> = {
  get: (headers, name) => (typeof name === 'string' ? (headers.get(name) ?? undefined) : undefined),
  has: (headers, name) => typeof name === 'string' && headers.has(name),
  ownKeys(headers) {
    const names: string[] = [];
    headers.forEach((_value, name) => names.push(name));
    return names;
  },
  getOwnPropertyDescriptor(headers, name) {
    const value = typeof name === 'string' ? headers.get(name) : null;
    return value === null ? undefined : { value, writable: false, enumerable: true, configurable: true };
  },
};

/** The core's header map over web Headers (see HEADER_VIEW). */
export function headerMap(headers: Headers): HeaderMap {
  return new Proxy(headers, HEADER_VIEW) as unknown as HeaderMap;
}

/**
 * Creates the fetch handler.
 *
 * @param app The core app.
 * @param options Trusted proxies.
 * @returns A handler that never rejects for a request the core can answer.
 */
export function createFetchHandler(app: App, options: FetchHandlerOptions = {}): FetchHandler {
  const trusted = options.trustedProxies ?? null;
  const respond = (answer: Answer) => andThen(answer, toWebResponse);
  return (request, clientIp) => {
    const { path, query } = splitUrl(request.url);
    const core = {
      method: request.method,
      path,
      query,
      headers: headerMap(request.headers),
      body: undefined as Uint8Array | undefined,
      clientIp: resolveClientIp(clientIp, trusted ? (request.headers.get('x-forwarded-for') ?? undefined) : undefined, trusted),
      requestId: undefined as string | undefined,
      clientKey: undefined as string | undefined,
    };
    if (!request.body) return respond(app.handle(core));
    return readBodyUpTo(request.body, app.bodyLimit + 1).then((body) => {
      core.body = body;
      return respond(app.handle(core));
    });
  };
}
