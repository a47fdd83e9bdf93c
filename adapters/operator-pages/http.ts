/**
 * What the operator pages answer with: the headers of every page (a strict Content-Security-Policy),
 * the session cookie, redirects and the forms' bodies.
 *
 * @module
 */
import type { CidrSet } from '../../core/clients/client-ip.ts';
import { headerValue, HTML_TYPE, type CoreRequest, type CoreResponse } from '../../core/http/http.ts';
import type { Html } from './html.ts';

/** Scripts and styles only from this listener's own files; nothing else loads, nothing frames a page. */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');


/** The headers of every page answer, redirects included (the pipeline adds nosniff and no-store too). */
export function pageHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-security-policy': PAGE_CSP,
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    ...extra,
  };
}

export function htmlResponse(status: number, page: Html, extra: Record<string, string> = {}): CoreResponse {
  return { status, headers: pageHeaders({ 'content-type': HTML_TYPE, ...extra }), body: page.text };
}

/** 303 See Other: after a form, the browser GETs `location` (post, redirect, get). */
export function seeOther(location: string, extra: Record<string, string> = {}): CoreResponse {
  return { status: 303, headers: pageHeaders({ location, ...extra }), body: null };
}

/**
 * Whether the request came over TLS: directly, or through a trusted proxy that says so with
 * X-Forwarded-Proto. The session cookie is Secure then.
 */
export function cameOverTls(request: CoreRequest, trustedProxies: CidrSet | null): boolean {
  if (request.tls === true) return true;
  const proto = headerValue(request.headers, 'x-forwarded-proto')?.split(',', 1)[0]?.trim().toLowerCase();
  return proto === 'https' && trustedProxies !== null && trustedProxies.has(request.clientIp);
}

/** What the session cookie of a request is called, and whether it is Secure. */
export interface SessionCookie {
  name: string;
  secure: boolean;
}

/**
 * The session cookie of the listener a request came to. Browsers do not keep cookies apart by port, so one
 * fixed name would be sent to, and overwritten by, every listener of the host. Over TLS it is
 * `__Host-operator_session` (Secure, Path=/, no Domain: the browser takes it only from a secure origin of
 * this very host); over plain HTTP it names the port the browser came to, `operator_session_8081`.
 */
export function sessionCookieOf(request: CoreRequest, trustedProxies: CidrSet | null): SessionCookie {
  if (cameOverTls(request, trustedProxies)) return { name: '__Host-operator_session', secure: true };
  const port = /:(\d{1,5})$/.exec(headerValue(request.headers, 'host') ?? '')?.[1] ?? '80';
  return { name: `operator_session_${port}`, secure: false };
}

/** The Set-Cookie of a session; an empty id with max-age 0 clears it. */
export function sessionCookie({ name, secure }: SessionCookie, id: string): string {
  const attributes = ['HttpOnly', 'SameSite=Strict', 'Path=/', ...(secure ? ['Secure'] : []), ...(id === '' ? ['Max-Age=0'] : [])];
  return `${name}=${id}; ${attributes.join('; ')}`;
}

/** A cookie's value from the Cookie header(s), or undefined. */
export function cookieValue(request: CoreRequest, name: string): string | undefined {
  const raw = request.headers['cookie'];
  const header = typeof raw === 'string' ? raw : raw?.join('; ');
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/**
 * The fields of a form body (application/x-www-form-urlencoded); the first value of each name. Null when
 * the body is larger than `limit` or of another type: the pages' forms send nothing else.
 */
export function formFields(request: CoreRequest, limit: number): Record<string, string> | null {
  const type = headerValue(request.headers, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  const body = request.body ?? '';
  if (type !== 'application/x-www-form-urlencoded' && body.length > 0) return null;
  if (body.length > limit) return null;
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(typeof body === 'string' ? body : utf8.decode(body))) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}
