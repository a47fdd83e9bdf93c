/**
 * What the purge adapters share: one request to a cache or a CDN's API, whose answer is read in full and
 * whose failure says what answered, never with the credentials.
 *
 * @module
 */

/** The most of an answer's body quoted in an error. */
const QUOTED = 300;

/** Sends `init` to `url`; resolves with the answer and its text, rejects with the network's reason. */
export async function send(url: string, init: RequestInit, what: string): Promise<{ response: Response; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new Error(`${what}: no answer from ${new URL(url).origin} (${cause ?? (error instanceof Error ? error.message : String(error))})`);
  }
  return { response, text: await response.text() };
}

/** An error naming the status and the start of the body (unless it only repeats the status text). */
export function refused(what: string, response: Response, detail: string): Error {
  const more = detail && detail !== response.statusText ? `: ${detail.slice(0, QUOTED)}` : '';
  return new Error(`${what}: ${response.status} ${response.statusText}${more}`);
}

/** Parsed JSON, or null when the text is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The base URL without trailing slashes, checked to be http(s). */
export function baseUrl(url: string, what: string): string {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new Error(`${what}: ${JSON.stringify(url)} is not an http(s) URL`);
  return url.replace(/\/+$/, '');
}
