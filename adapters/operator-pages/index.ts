/**
 * The operator pages: server-rendered HTML on the operator listener (never the public port), signed in
 * with the operator token for a session cookie. Every page action runs an operation of the operator API
 * (operate.ts). Routed unmetered, outside the bearer gate: a page checks its session instead, and every
 * POST its CSRF token. A host adds them with `createApp({ operatorToken, operatorRoutes: operatorPages })`.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';
import type { Router } from '../../core/http/router.ts';
import type { OperatorRoutes } from '../../core/operator/app.ts';
import type { OperatorContext } from '../../core/operator/context.ts';
import type { TokenChecker } from '../../core/operator/token-gate.ts';
import { SCRIPT_PATH, serveScript, serveStyle, STYLE_PATH } from './assets.ts';
import { cookieValue, formFields, htmlResponse, pageHeaders, seeOther, sessionCookieOf } from './http.ts';
import { inboxPage } from './inbox-page.ts';
import { layout } from './layout.ts';
import { eventsPage } from './events-page.ts';
import { auditPage } from './audit-page.ts';
import { operateFor } from './operate.ts';
import { ordersPage } from './orders-page.ts';
import type { PageModule, PageRequest, PagesSettings } from './page-module.ts';
import { numbersPage } from './numbers-page.ts';
import { releasesPage } from './releases-page.ts';
import { roadmapPage } from './roadmap-page.ts';
import { csrfMatches, createSessionStore, type Session } from './session.ts';
import { forgedForm, SIGN_IN_PATH, SIGN_OUT_PATH, signInHandlers, signInTo } from './sign-in.ts';

export type { PagesSettings } from './page-module.ts';

/** The pages, in the order of the navigation; the first is where signing in leads. */
export const PAGE_MODULES: readonly PageModule[] = [inboxPage, roadmapPage, releasesPage, ordersPage, eventsPage, numbersPage, auditPage];

const UNMETERED = { metered: false } as const;

/**
 * Adds the pages' routes to the operator router.
 *
 * @param router The operator listener's router.
 * @param context The operator context (the same the API's operations get).
 * @param checker The token checker of the bearer gate (a wrong sign-in counts as a wrong token).
 * @param settings Body limit, trusted proxies, logger.
 */
export const operatorPages: OperatorRoutes = (router: Router, context: OperatorContext, checker: TokenChecker, settings: PagesSettings): void => {
  const sessions = createSessionStore(context.clock);
  const home = PAGE_MODULES[0]!.path;
  const nav = PAGE_MODULES.map(({ path, title }) => ({ path, title }));
  const signIn = signInHandlers(sessions, checker, settings, home);

  const pageRequest = (request: CoreRequest, session: Session): PageRequest => ({
    request,
    session,
    query: new URLSearchParams(request.query ?? ''),
    operate: operateFor(context, request, session.actor),
    now: () => context.clock.now(),
  });

  /** The session the request's cookie names, if it is one. */
  const sessionOf = (request: CoreRequest) => sessions.find(cookieValue(request, sessionCookieOf(request, settings.trustedProxies).name));

  /** A GET that needs a session: the answer, or a redirect to the sign-in form. */
  const signedIn = (answer: (page: PageRequest) => Promise<CoreResponse>) => async (request: CoreRequest): Promise<CoreResponse> => {
    const session = sessionOf(request);
    return session ? answer(pageRequest(request, session)) : seeOther(signInTo(request.path + (request.query ? `?${request.query}` : '')));
  };

  const show = (module: PageModule) =>
    signedIn(async (page) => {
      const content = await module.render(page);
      const { flash, csrf } = page.session;
      page.session.flash = null;
      return htmlResponse(200, layout({ title: module.title, nav, current: module.path, csrf, who: page.session.actor, flash, content }));
    });

  const act = (module: PageModule, action: PageModule['actions'][number]) => async (request: CoreRequest, params: Record<string, string>) => {
    const session = sessionOf(request);
    // A form posted after the session ended: nothing is done, and the sign-in form says so and comes back here.
    if (!session) return seeOther(signInTo(module.path, true));
    const form = formFields(request, settings.bodyLimit);
    if (!form || !csrfMatches(session, form['csrf'])) return forgedForm();
    const result = await action.run(pageRequest(request, session), form, params);
    session.flash = result.flash;
    return seeOther(`${module.path}${result.back ?? ''}`);
  };

  router.add('GET', '/', () => seeOther(home), UNMETERED);
  router.add('GET', '/pages', () => seeOther(home), UNMETERED);
  // A browser asks for an icon by itself: that is no wrong token (10 would lock the address out).
  router.add('GET', '/favicon.ico', () => ({ status: 204, headers: pageHeaders(), body: null }), UNMETERED);
  router.add('GET', STYLE_PATH, serveStyle, UNMETERED);
  router.add('GET', SCRIPT_PATH, serveScript, UNMETERED);
  router.add('GET', SIGN_IN_PATH, signIn.show, UNMETERED);
  router.add('POST', SIGN_IN_PATH, signIn.signIn, UNMETERED);
  router.add('POST', SIGN_OUT_PATH, signIn.signOut, UNMETERED);
  for (const module of PAGE_MODULES) {
    router.add('GET', module.path, show(module), UNMETERED);
    for (const action of module.actions) router.add('POST', action.path, act(module, action), UNMETERED);
    for (const file of module.files ?? []) router.add('GET', file.path, signedIn(file.serve), UNMETERED);
  }
};
