/**
 * A test server with its operator listener on a real socket, and a caller that sends the operator token;
 * or the operator listener alone, of an app a test made itself.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import { operatorPages } from '../adapters/operator-pages/index.ts';
import { parseCidrList } from '../core/clients/cidr.ts';
import { createNodeListener } from '../adapters/node/index.ts';
import { type HttpInit, type HttpResult, sendRequest } from './_client.ts';
import type { App } from '../core/app.ts';
import { bodyJson, bodyText, coreRequest, startTestServer, type TestServer } from './_setup.ts';

export const OPERATOR_TOKEN = 'op-0123456789abcdef-'.padEnd(40, 'x');

/** Two operators' own tokens (OPERATOR_TOKENS), for the tests of who made a change. */
export const ADA = 'ada-0123456789abcdef0123456789abcdef';
export const GRACE = 'grace-fedcba9876543210fedcba9876543210';
export const NAMED_TOKENS = [
  { name: 'ada', token: ADA },
  { name: 'grace', token: GRACE },
] as const;

/** Webhook receivers the tests run on 127.0.0.1: allowed by name, as an operator allows a range (WEBHOOK_ALLOW_NETWORKS). */
export const LOCAL_RECEIVERS = { allowed: parseCidrList('127.0.0.1/32') };

/** The request `call` sends: the operator token, a JSON body when given, from a client address when given. */
export function operatorRequest(path: string, init: CallInit): HttpInit {
  return {
    method: init.method ?? 'GET',
    path,
    headers: {
      authorization: `Bearer ${OPERATOR_TOKEN}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    ...(init.from ? { from: init.from } : {}),
  };
}

export interface CallInit {
  method?: string;
  json?: unknown;
  headers?: Record<string, string>;
  /** The client address the request comes from (a 127.x address). */
  from?: string;
}

export interface OperatorServer {
  server: TestServer;
  url: string;
  /** A request to the operator listener with the operator token (unless `headers` replaces it). */
  call(path: string, init?: CallInit): ReturnType<typeof sendRequest>;
  close(): Promise<void>;
}

/** Starts a test server (options as startTestServer's) and its operator listener. */
export async function startOperatorServer(...options: Parameters<typeof startTestServer>): Promise<OperatorServer> {
  const [appOptions = {}, rest] = options;
  const server = await startTestServer({ ...appOptions, operatorToken: OPERATOR_TOKEN, operatorRoutes: operatorPages }, rest);
  const operator = createServer(createNodeListener(server.app.operator!));
  await new Promise<void>((resolve) => operator.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(operator.address() as AddressInfo).port}`;
  return {
    server,
    url,
    call: (path, init = {}) => sendRequest(url, operatorRequest(path, init)),
    async close() {
      operator.closeAllConnections();
      await new Promise((resolve) => operator.close(resolve));
      await server.close();
    },
  };
}

export interface OperatorListener {
  url: string;
  /** One request with the token; `json` is sent as the body. */
  call(path: string, init?: { method?: string; json?: unknown; headers?: Record<string, string> }): Promise<HttpResult>;
  close(): Promise<void>;
}

/** Serves `app.operator` (the app was made with `operatorToken: OPERATOR_TOKEN`) on 127.0.0.1. */
export async function startOperatorListener(app: App): Promise<OperatorListener> {
  if (!app.operator) throw new Error('the app has no operator token');
  const server = createServer(createNodeListener(app.operator));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    call: (path, init = {}) =>
      sendRequest(url, {
        method: init.method ?? 'GET',
        path,
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** An answer of the operator API asked in process: its status and its JSON body. */
export interface OperatorAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Asks `app.operator` in process (no socket) from 127.0.0.1 with the operator token; `target` may carry a query. */
function askOperator(app: App, method: string, target: string, json: unknown, headers: Record<string, string>) {
  const [path = target, query = ''] = target.split('?');
  return app.operator!.handle(
    coreRequest({
      method,
      path,
      query,
      clientIp: '127.0.0.1',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...headers },
      ...(json === undefined ? {} : { json }),
    }),
  );
}

/**
 * One request to the operator API of `app` (made with `operatorToken: OPERATOR_TOKEN`), in process.
 *
 * @param target The path, with its query when it has one.
 * @param json The body, sent as JSON when given.
 * @param headers Sent beside the token.
 * @returns The status and the JSON body.
 */
export async function operate(app: App, method: string, target: string, json?: unknown, headers: Record<string, string> = {}): Promise<OperatorAnswer> {
  const response = await askOperator(app, method, target, json, headers);
  return { status: response.status, body: bodyJson(response) as Record<string, unknown> };
}

/** `operate` for a request that must succeed: its JSON body; the test fails, showing the answer, when the status is 300 or more. */
export async function operateOk(app: App, method: string, target: string, json?: unknown): Promise<Record<string, unknown>> {
  const response = await askOperator(app, method, target, json, {});
  assert.ok(response.status < 300, `${method} ${target}: ${response.status} ${bodyText(response)}`);
  return bodyJson(response) as Record<string, unknown>;
}
