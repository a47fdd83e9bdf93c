/**
 * Driving the operator pages over HTTP as a browser without JavaScript would: sign in with the token
 * form, keep the session cookie, read the CSRF token off a page and post forms with it.
 */
import { type HttpInit, type HttpResult, sendRequest } from './_client.ts';
import { OPERATOR_TOKEN } from './_operator.ts';

export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A urlencoded form body and its content type. */
export function form(fields: Record<string, string>): { body: string; headers: Record<string, string> } {
  return { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
}

/** The session cookie (name=id) of a Set-Cookie answer. */
export function sessionCookieOf(answer: HttpResult): string {
  const match = /^((?:__Host-)?operator_session(?:_\d+)?=[^;]*)/.exec(answer.headers['set-cookie'] ?? '');
  if (!match) throw new Error(`no session cookie in ${JSON.stringify(answer.headers)}`);
  return match[1]!;
}

/** The session id of a Set-Cookie answer. */
export function sessionOf(answer: HttpResult): string {
  return sessionCookieOf(answer).split('=')[1]!;
}

/** The CSRF token of the first form of a page. */
export function csrfOf(page: HttpResult): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page.text);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  get(path: string): Promise<HttpResult>;
  post(path: string, fields: Record<string, string>): Promise<HttpResult>;
}

/** Signs in at an operator listener (its URL, or a function that sends it a request: in process) (with `token`, OPERATOR_TOKEN's by default); the session's GET and form POST (with its CSRF token unless given). */
export async function signIn(to: string | ((init: HttpInit) => Promise<HttpResult>), from = '127.0.0.1', token = OPERATOR_TOKEN): Promise<SignedIn> {
  const send = typeof to === 'string' ? (init: HttpInit) => sendRequest(to, init) : to;
  const answer = await send({ method: 'POST', path: '/pages/sign-in', from, ...form({ token }) });
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
  const cookie = sessionCookieOf(answer);
  const get = (path: string) => send({ path, from, headers: { cookie } });
  const csrf = csrfOf(await get('/pages/inbox'));
  return {
    cookie,
    csrf,
    get,
    post: (path, fields) => {
      const { body, headers } = form({ csrf, ...fields });
      return send({ method: 'POST', path, from, body, headers: { ...headers, cookie } });
    },
  };
}
