/**
 * The access log (LOG_REQUESTS=true): one JSON line per answered request, in the shape of the other log
 * lines. The query string is never logged: a checkout session id in it is a capability.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../core/http/http.ts';
import type { Observer } from '../core/ports/ports.ts';
import type { LineBuffer } from './line-buffer.ts';

const encoder = new TextEncoder();

/** The bytes of a body as sent: UTF-8 for text. */
function byteLength(body: CoreResponse['body']): number {
  if (body === null) return 0;
  if (typeof body !== 'string') return body.length;
  // Pure ASCII (every JSON answer of this API unless a text holds other characters) needs no encoding.
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) > 127) return encoder.encode(body).length;
  return body.length;
}

/** The ISO time of a millisecond, kept while requests keep coming within it. */
function isoClock(): () => string {
  let ms = 0;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== ms) {
      ms = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

/**
 * Creates the access log.
 *
 * Each line is written as text rather than through JSON.stringify of an object: the request id (checked
 * against [A-Za-z0-9._:-] or a UUID), the route template, the numbers and the time need no escaping, and
 * only the method, path and client address go through JSON.stringify. The same object shape as the other
 * log lines.
 *
 * @param lines Where the lines go (buffered stdout).
 * @returns An observer that writes a line per answer.
 */
export function createAccessLog(lines: LineBuffer): Pick<Required<Observer>, 'answered'> {
  const time = isoClock();
  return {
    answered(request: CoreRequest, response: CoreResponse, route: string | null, seconds: number) {
      lines.add(
        `{"time":"${time()}","level":"info","message":"request","requestId":"${request.requestId}",` +
          `"method":${JSON.stringify(request.method)},"route":${route === null ? 'null' : `"${route}"`},` +
          `"path":${JSON.stringify(request.path)},"status":${response.status},` +
          `"durationMs":${Math.round(seconds * 1e6) / 1000},"bytes":${byteLength(response.body)},` +
          `"clientIp":${JSON.stringify(request.clientIp)}}\n`,
      );
    },
  };
}
