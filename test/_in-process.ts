/**
 * The app answering in process (`app.handle`), behind the same `request(init)` the socket helpers give
 * (`startTestServer`, `startOperatorServer`): for the tests that start a server only to send it
 * requests, which then run in the unit tier (scripts/test-tiers.ts). No socket, so nothing the node
 * adapter or node:http does is seen here: no `date`, `connection` or `content-length` header it adds, no
 * client address from a socket. A test whose point is one of those keeps the socket helpers.
 *
 * The request is what test/_client.ts's `sendRequest` sends: its headers, a `host`, the body, the client
 * address `from` (127.0.0.1 by default), and the path and query split as the node adapter splits them.
 * With `trustedProxies`, the client address is resolved from X-Forwarded-For as the node adapter resolves
 * it (core/clients/client-ip.ts's forwardedClient), for tests that need addresses no loopback socket has.
 */

/** What the node listener's options gave the socket helpers; here only the trusted proxies. */
export interface InProcessListener {
  trustedProxies?: CidrSet | null;
}
import { operatorPages } from '../adapters/operator-pages/index.ts';
import type { App } from '../core/app.ts';
import { canonicalIp, type CidrSet, forwardedClient } from '../core/clients/client-ip.ts';
import type { CoreRequest } from '../core/http/http.ts';
import type { HttpInit, HttpResult } from './_client.ts';
import { type CallInit, OPERATOR_TOKEN, type OperatorListener, operatorRequest } from './_operator.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './_setup.ts';

/** Sends one request to `handle` (the app's, or its operator listener's) and reads the whole answer. */
export async function handleHttp(handle: App['handle'], init: HttpInit, listener: InProcessListener = {}): Promise<HttpResult> {
  const mark = init.path.indexOf('?');
  const headers: Record<string, string> = { host: 'localhost', ...lowerCased(init.headers ?? {}) };
  const body = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : init.body;
  if (body !== undefined && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const request: CoreRequest = {
    method: init.method ?? 'GET',
    path: mark < 0 ? init.path : init.path.slice(0, mark),
    query: mark < 0 ? undefined : init.path.slice(mark + 1),
    headers,
    body: body === undefined || body.length === 0 ? undefined : body,
    clientIp: clientOf(init.from ?? '127.0.0.1', headers['x-forwarded-for'], listener.trustedProxies ?? null),
  };
  const answer = await handle(request);
  let text = '';
  if (answer.stream) { for await (const chunk of answer.stream) text += chunk; }
  else if (answer.body !== null && request.method !== 'HEAD') {
    text = typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
  }
  return { status: answer.status, headers: lowerCased(answer.headers), text, json: () => JSON.parse(text) };
}

/** The client address as adapters/node/odd-requests.ts's clientOf gives it, from a peer address. */
function clientOf(from: string, forwarded: string | undefined, trusted: CidrSet | null): string {
  const peer = canonicalIp(from) ?? from;
  if (trusted === null || !trusted.has(peer) || forwarded === undefined) return peer;
  return forwardedClient(peer, forwarded, trusted);
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

/** A test app answering in process; the shape of `startTestServer`'s without the socket. */
export interface InProcessServer extends TestApp {
  /** Sends one request to `app.handle`; `from` is the client address (127.0.0.1 by default). */
  request(init: HttpInit): Promise<HttpResult>;
  /** Nothing to close; there for the shape. */
  close(): Promise<void>;
}

/** A test app (options as `createTestApp`'s) answering in process. */
export async function startInProcessServer(options: TestAppOptions = {}, listener: InProcessListener = {}): Promise<InProcessServer> {
  const testApp = await createTestApp(options);
  return { ...testApp, request: (init) => handleHttp(testApp.app.handle, init, listener), close: async () => {} };
}

/** A test app with its operator routes, both in process; the shape of `startOperatorServer`'s without a url. */
export interface InProcessOperator {
  server: InProcessServer;
  /** Sends one request to the operator routes as it is (what `signIn` takes in place of a URL). */
  send(init: HttpInit): Promise<HttpResult>;
  /** A request to the operator routes with the operator token (unless `headers` replaces it). */
  call(path: string, init?: CallInit): Promise<HttpResult>;
  close(): Promise<void>;
}

/** A test app (options as `createTestApp`'s) with the operator token and pages, answering in process. */
export async function startInProcessOperator(options: TestAppOptions = {}, listener: InProcessListener = {}): Promise<InProcessOperator> {
  const server = await startInProcessServer({ ...options, operatorToken: OPERATOR_TOKEN, operatorRoutes: operatorPages }, listener);
  const operator = server.app.operator!;
  return {
    server,
    send: (init) => handleHttp(operator.handle, init),
    call: (path, init = {}) => handleHttp(operator.handle, operatorRequest(path, init)),
    close: async () => {},
  };
}

/** `startOperatorListener`'s shape for an app a test made itself (with `operatorToken: OPERATOR_TOKEN`), in process. */
export function inProcessOperatorListener(app: App): { call: OperatorListener['call']; close(): Promise<void> } {
  if (!app.operator) throw new Error('the app has no operator token');
  const operator = app.operator;
  return {
    call: (path, init = {}) => handleHttp(operator.handle, operatorRequest(path, init)),
    close: async () => {},
  };
}
