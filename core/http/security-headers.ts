/**
 * The headers every answer carries for browsers: no content sniffing, and on HTML pages no Referer.
 *
 * @module
 */

/** Never guess a type other than Content-Type says (a JSON error echoing a path stays JSON). */
const NOSNIFF = 'nosniff';

/**
 * The referrer policy of HTML pages: none. A page's own address can hold a secret (the simulator's pages
 * carry the checkout session id, which reads the license keys), so no link or form sends it on.
 */
const HTML_REFERRER_POLICY = 'no-referrer';

/**
 * Adds the headers to an answer's headers: `X-Content-Type-Options` always, `Referrer-Policy` when the
 * answer is HTML.
 *
 * @param headers The answer's headers, lower-case names; changed in place.
 */
export function addSecurityHeaders(headers: Record<string, string>): void {
  headers['x-content-type-options'] = NOSNIFF;
  if (headers['content-type']?.startsWith('text/html')) headers['referrer-policy'] = HTML_REFERRER_POLICY;
}
