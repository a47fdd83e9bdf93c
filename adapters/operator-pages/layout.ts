/**
 * The frame of every operator page: the navigation (one entry per page module), the sign-out button,
 * the flash message of the last action, and the page's own content.
 *
 * @module
 */
import { SCRIPT_PATH, STYLE_PATH } from './assets.ts';
import { html, type Html } from './html.ts';
import type { Flash } from './session.ts';

/** An entry of the navigation. */
export interface NavEntry {
  readonly path: string;
  readonly title: string;
}

export interface Frame {
  title: string;
  /** The navigation; empty on the sign-in page. */
  nav: readonly NavEntry[];
  /** The page's path (its nav entry is marked current). */
  current: string;
  /** The session's CSRF token, for the sign-out form; null when signed out. */
  csrf: string | null;
  /** The operator the session is signed in as (shown beside Sign out); absent when signed out. */
  who?: string | undefined;
  flash: Flash | null;
  content: Html;
}

/** The flash of an action: what it did, or the API's message and resolution. */
export function flashBox(flash: Flash | null): Html {
  if (!flash) return html``;
  const role = flash.kind === 'error' ? 'alert' : 'status';
  return html`<div class="flash ${flash.kind}" role="${role}"><p>${flash.message}</p>${flash.resolution ? html`<p>${flash.resolution}</p>` : ''}</div>`;
}

/** A page's answer when the operation it shows was refused: the API's message and resolution. */
export function refusalBox(outcome: { message: string; resolution: string }): Html {
  return flashBox({ kind: 'error', message: outcome.message, resolution: outcome.resolution });
}

/** The hidden field every form of a signed-in page carries. */
export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="csrf" value="${csrf}">`;
}

/** A whole page. */
export function layout(frame: Frame): Html {
  const links = frame.nav.map(
    (entry) => html`<li><a href="${entry.path}"${entry.path === frame.current ? html` aria-current="page"` : ''}>${entry.title}</a></li>`,
  );
  const signOut = frame.csrf
    ? html`<form method="post" action="/pages/sign-out">${frame.who ? html`<span class="who">Signed in as ${frame.who}</span> ` : ''}${csrfField(frame.csrf)}<button type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${frame.title} · Operator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_PATH}">
<script src="${SCRIPT_PATH}" defer></script>
</head>
<body>
<header>
<span class="brand">converter-site-api · Operator</span>
${frame.nav.length > 0 ? html`<nav aria-label="Pages"><ul>${links}</ul></nav>` : ''}
${signOut}
</header>
<main>
<h1>${frame.title}</h1>
${flashBox(frame.flash)}
${frame.content}
</main>
</body>
</html>
`;
}
