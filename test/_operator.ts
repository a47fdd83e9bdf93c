/**
 * The operator listener of a test app on its own real socket, and a client that sends the token.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '../adapters/node/index.ts';
import type { App } from '../core/app.ts';
import { sendRequest, type HttpResult } from './_client.ts';

/** An operator token of the length the operator listener asks for. */
export const OPERATOR_TOKEN = 'op-'.padEnd(40, 'x');

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
