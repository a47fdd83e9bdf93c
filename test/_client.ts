/**
 * An HTTP client for tests against a server at a base URL: one request per connection, the client
 * address picked by binding the socket to a loopback address (127.0.0.x).
 */
import { request as httpRequest } from 'node:http';

/** What a client sees of an HTTP response. */
export interface HttpResult {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  json(): unknown;
}

/** One request. `from` is the client address; `headers` may carry what a host adds (CF-Connecting-IP). */
export interface HttpInit {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  from?: string;
}

/**
 * Sends one request without keep-alive.
 *
 * @param baseUrl e.g. http://127.0.0.1:8080
 * @param init The request.
 */
export function sendRequest(baseUrl: string, init: HttpInit): Promise<HttpResult> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: Number(base.port),
        method: init.method ?? 'GET',
        path: init.path,
        headers: init.headers ?? {},
        localAddress: init.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: res.statusCode ?? 0, headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
