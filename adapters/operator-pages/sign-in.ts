/**
 * Signing in to the operator pages with an operator's token (a form), for a session cookie that remembers
 * whose token it was (the actor of the session's changes); signing out.
 * A wrong token counts against the address like a wrong bearer token (token-gate.ts).
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';
import { OPERATOR_ERRORS } from '../../core/operator/errors.ts';
import type { TokenChecker } from '../../core/operator/token-gate.ts';
import { html } from './html.ts';
import { cookieValue, formFields, htmlResponse, seeOther, sessionCookie, sessionCookieOf } from './http.ts';
import type { PagesSettings } from './page-module.ts';
import { layout } from './layout.ts';
import { csrfMatches, type Flash, type SessionStore } from './session.ts';

export const SIGN_IN_PATH = '/pages/sign-in';
export const SIGN_OUT_PATH = '/pages/sign-out';

/** What a refused token means on the form (the API's messages speak of a bearer header). */
const REFUSALS: Record<string, Flash> = {
  unauthorized: { kind: 'error', message: 'Enter the operator token.', resolution: 'It is your token of OPERATOR_TOKENS, or the OPERATOR_TOKEN the server was started with.' },
  forbidden: { kind: 'error', message: 'That is none of the operator tokens.', resolution: 'Use your token from OPERATOR_TOKENS, or the OPERATOR_TOKEN the server was started with.' },
};

/** A page of these pages to return to after signing in, or null: never another site (`//host`, `/\\host`). */
export function pageToReturnTo(next: string | null | undefined): string | null {
  return next && /^\/pages\/[\w\-./?=&%]*$/.test(next) && !next.startsWith(SIGN_IN_PATH) ? next : null;
}

/** The sign-in form's address that returns to `next` afterwards, saying why when `expired`. */
export function signInTo(next: string, expired = false): string {
  return `${SIGN_IN_PATH}?${expired ? 'expired&' : ''}next=${encodeURIComponent(next)}`;
}

/** What the lockout means, with the seconds to wait (the API says it with Retry-After). */
function lockedOut(retryAfter: string | undefined): Flash {
  return {
    kind: 'error',
    message: `Too many wrong tokens within a minute. Try again in ${retryAfter ?? 'a few'} seconds.`,
    resolution: 'The right token is accepted even now if you paste it exactly; until then, nothing else is tried.',
  };
}

const EXPIRED: Flash = {
  kind: 'error',
  message: 'Your session had ended (signed out, 12 hours without use, or a restart of the server): nothing was changed.',
  resolution: 'Sign in, and you are taken back to the page to make the change again.',
};

function signInPage(status: number, flash: Flash | null, headers: Record<string, string> = {}, next: string | null = null): CoreResponse {
  const content = html`<form method="post" action="${SIGN_IN_PATH}" class="card">
${next === null ? '' : html`<input type="hidden" name="next" value="${next}">`}
<label for="token">Operator token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required autofocus>
<p class="meta">Your own token of OPERATOR_TOKENS, or the OPERATOR_TOKEN of this server. Signed in, a session lasts 12 hours without use; a restart of the server signs you out.</p>
<button type="submit">Sign in</button>
</form>`;
  return htmlResponse(status, layout({ title: 'Sign in', nav: [], current: SIGN_IN_PATH, csrf: null, flash, content }), headers);
}

/** The sign-in routes' handlers. */
export function signInHandlers(sessions: SessionStore, checker: TokenChecker, settings: PagesSettings, home: string) {
  const cookieOf = (request: CoreRequest) => sessionCookieOf(request, settings.trustedProxies);
  const sessionOf = (request: CoreRequest) => sessions.find(cookieValue(request, cookieOf(request).name));
  return {
    show(request: CoreRequest): CoreResponse {
      const query = new URLSearchParams(request.query ?? '');
      const next = pageToReturnTo(query.get('next'));
      if (sessionOf(request)) return seeOther(next ?? home);
      const flash: Flash | null = query.has('signed-out') ? { kind: 'done', message: 'You are signed out.' } : query.has('expired') ? EXPIRED : null;
      return signInPage(200, flash, {}, next);
    },

    signIn(request: CoreRequest): CoreResponse {
      const form = formFields(request, settings.bodyLimit);
      const token = form?.['token'] ?? '';
      const next = pageToReturnTo(form?.['next']);
      const refusal = checker.check(request.clientKey ?? request.clientIp, token === '' ? null : token);
      if (refusal) {
        const { status, resolution } = OPERATOR_ERRORS[refusal.code];
        const retry = refusal.headers['retry-after'];
        const flash = refusal.code === 'too_many_failures' ? lockedOut(retry) : (REFUSALS[refusal.code] ?? { kind: 'error', message: refusal.message, resolution });
        return signInPage(status, flash, retry ? { 'retry-after': retry } : {}, next);
      }
      // Admitted, so the token is one operator's: the session acts under that name.
      const session = sessions.create(checker.actorOf(token) ?? '');
      settings.logger.info('operator signed in to the pages', { requestId: request.requestId, actor: session.actor });
      return seeOther(next ?? home, { 'set-cookie': sessionCookie(cookieOf(request), session.id) });
    },

    signOut(request: CoreRequest): CoreResponse {
      const session = sessionOf(request);
      if (session && csrfMatches(session, formFields(request, settings.bodyLimit)?.['csrf'])) sessions.end(session.id);
      else if (session) return forgedForm();
      return seeOther(`${SIGN_IN_PATH}?signed-out`, { 'set-cookie': sessionCookie(cookieOf(request), '') });
    },
  };
}

/** The answer to a POST of a signed-in session without its CSRF token: nothing is done. */
export function forgedForm(): CoreResponse {
  const content = html`<p>This form did not come from a page of your session, so nothing was changed.</p>
<p><a href="/pages">Open the pages again</a> and send the form from there.</p>`;
  return htmlResponse(403, layout({ title: 'Form refused', nav: [], current: '', csrf: null, flash: null, content }));
}
