/**
 * The request target as the core reads it: origin-form (`/path?query`). RFC 9112 section 3.2.2 says a server
 * must accept the absolute-form (`http://host/path?query`) too, which clients send to proxies and some
 * load tools send to anyone; its scheme and authority are dropped here (the Host header is not consulted).
 *
 * @module
 */

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The origin-form of a request target.
 *
 * @param target The target as node:http gives it (`IncomingMessage.url`).
 * @returns The target itself when it starts with `/` (the usual case, one comparison), the path and query of
 *   an http(s) absolute-form (`/` when it has no path), and any other form unchanged.
 */
export function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* '/' */) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}
