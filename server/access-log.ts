/**
 * The access log (LOG_REQUESTS=true): one JSON line per answered request, in the shape of the other log
 * lines. The query string is never logged: a checkout session id in it is a capability.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../core/http.ts';
import type { Observer } from '../core/ports.ts';
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

/**
 * Creates the access log.
 *
 * @param lines Where the lines go (buffered stdout).
 * @returns An observer that writes a line per answer.
 */
export function createAccessLog(lines: LineBuffer): Pick<Required<Observer>, 'answered'> {
  return {
    answered(request: CoreRequest, response: CoreResponse, route: string | null, seconds: number) {
      lines.add(
        JSON.stringify({
          time: new Date().toISOString(),
          level: 'info',
          message: 'request',
          requestId: request.requestId,
          method: request.method,
          route,
          path: request.path,
          status: response.status,
          durationMs: Math.round(seconds * 1e6) / 1000,
          bytes: byteLength(response.body),
          clientIp: request.clientIp,
        }) + '\n',
      );
    },
  };
}
