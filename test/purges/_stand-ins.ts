/**
 * Stand-ins for the two CDN APIs the purge adapters call (issue 55), each a real HTTP server on 127.0.0.1
 * built from its provider's documented API, answering as documented and recording each request:
 *
 * - Cloudflare, "Purge Cached Content by Tag": `POST /client/v4/zones/{zone_id}/purge_cache` with
 *   `Authorization: Bearer <token>` and `{"tags": [...]}` (at most 30); 200 `{"success": true, "errors": [],
 *   "messages": [], "result": {"id": ...}}`, or `success: false` with `errors: [{code, message}]`.
 * - Fastly, "Purge multiple surrogate key tags": `POST /service/{service_id}/purge` with `Fastly-Key` and
 *   `{"surrogate_keys": [...]}` (at most 256), `Fastly-Soft-Purge: 1` for a soft purge; 200 with each key's
 *   purge id, or 401 `{"msg": ...}` for a wrong key.
 *
 * `failNext` makes the next answers 500, as a provider in trouble answers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface StandIn {
  /** The API's base, as an adapter's `apiBase` takes it. */
  apiBase: string;
  /** Every request, in order. */
  requests: Recorded[];
  /** The next `count` requests are answered 500. */
  failNext(count: number): void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown };

async function serve(base: string, answer: (request: Recorded) => Answer): Promise<StandIn> {
  const requests: Recorded[] = [];
  let failing = 0;
  const server: Server = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk: Buffer) => void (body += chunk.toString('utf8')));
    incoming.on('end', () => {
      const recorded = { method: incoming.method ?? '', path: incoming.url ?? '', headers: incoming.headers, body };
      requests.push(recorded);
      const { status, body: sent } = failing > 0
        ? (failing--, { status: 500, body: { success: false, errors: [{ code: 10000, message: 'Internal error' }], messages: [], result: null } })
        : answer(recorded);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(sent));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}${base}`,
    requests,
    failNext: (count) => void (failing = count),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const parsed = (body: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** Cloudflare's API for `zoneId`, taking `token`. */
export function startCloudflare(zoneId: string, token: string): Promise<StandIn> {
  const refusal = (code: number, message: string, status = 400): Answer => ({
    status,
    body: { success: false, errors: [{ code, message }], messages: [], result: null },
  });
  return serve('/client/v4', (request) => {
    if (request.method !== 'POST' || request.path !== `/client/v4/zones/${zoneId}/purge_cache`) {
      return refusal(7003, 'Could not route to the requested path', 404);
    }
    if (request.headers['authorization'] !== `Bearer ${token}`) return refusal(10000, 'Authentication error', 403);
    const tags = parsed(request.body)?.['tags'];
    if (!Array.isArray(tags) || tags.length === 0 || tags.length > 30 || !tags.every((tag) => typeof tag === 'string' && !/[\s,]/.test(tag))) {
      return refusal(1012, 'Request must contain one of "purge_everything", "files", "tags", "hosts" or "prefixes"');
    }
    return { status: 200, body: { success: true, errors: [], messages: [], result: { id: zoneId } } };
  });
}

/** Fastly's API for `serviceId`, taking `token`. */
export function startFastly(serviceId: string, token: string): Promise<StandIn> {
  return serve('', (request) => {
    if (request.method !== 'POST' || request.path !== `/service/${serviceId}/purge`) return { status: 404, body: { msg: 'Record not found' } };
    if (request.headers['fastly-key'] !== token) return { status: 401, body: { msg: 'Provided credentials are missing or invalid' } };
    const keys = parsed(request.body)?.['surrogate_keys'];
    if (!Array.isArray(keys) || keys.length === 0 || keys.length > 256) return { status: 400, body: { msg: 'Bad request', detail: 'surrogate_keys' } };
    return { status: 200, body: Object.fromEntries(keys.map((key, index) => [String(key), `108-1391560174-${974124 + index}`])) };
  });
}
