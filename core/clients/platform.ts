/**
 * A client's platform, from its headers: whether it runs Windows, the one platform the MSI installs on.
 * GET /version and GET /download count by it, GET /download sends the others to the Windows-only page,
 * and a bug report's client is counted by it.
 *
 * @module
 */
import { type HeaderMap, headerValue } from '../http/http.ts';

/** Windows from the Sec-CH-UA-Platform client hint when sent, else from the User-Agent. */
export function isWindowsClient(headers: HeaderMap): boolean {
  const hint = headerValue(headers, 'sec-ch-ua-platform');
  if (hint !== undefined) return hint.trim().replace(/^"|"$/g, '').toLowerCase() === 'windows';
  const agent = headerValue(headers, 'user-agent') ?? '';
  return /\bWindows\b/i.test(agent) && !/\bWindows Phone\b/i.test(agent);
}
