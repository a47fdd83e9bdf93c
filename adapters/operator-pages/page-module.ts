/**
 * What one operator page is: its path and title (its entry in the navigation), what it shows, the form
 * actions it takes and any file it offers. Each page is one module; a new page (orders, events) is one
 * more entry in PAGE_MODULES (index.ts).
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';
import type { Html } from './html.ts';
import type { Outcome } from '../../core/operator/invoke.ts';
import type { Operate } from './operate.ts';
import type { Flash, Session } from './session.ts';

/** What a page's code is given for one request. */
export interface PageRequest {
  readonly request: CoreRequest;
  readonly session: Session;
  /** The query of the request, one value per name. */
  readonly query: URLSearchParams;
  /** Runs a declared operation of the operator API (core/operator/endpoints.ts). */
  readonly operate: Operate;
  /** The app's clock, ms since the epoch. */
  now(): number;
}

/** What a form action did: the flash to show, and the query of the page to return to ("?type=review"). */
export interface ActionResult {
  flash: Flash;
  back?: string;
}

export interface PageAction {
  /** A POST path (":name" segments are parameters). */
  readonly path: string;
  run(page: PageRequest, form: Record<string, string>, params: Record<string, string>): Promise<ActionResult>;
}

/** A GET path of the page that answers something other than the page (a CSV export). */
export interface PageFile {
  readonly path: string;
  serve(page: PageRequest): Promise<CoreResponse>;
}

export interface PageModule {
  readonly path: string;
  readonly title: string;
  /** The page's content (the frame, navigation and flash are added around it). */
  render(page: PageRequest): Promise<Html>;
  readonly actions: readonly PageAction[];
  readonly files?: readonly PageFile[];
}

/** The result of an operation that went through: a done flash. */
export function done(message: string, back?: string): ActionResult {
  return back === undefined ? { flash: { kind: 'done', message } } : { flash: { kind: 'done', message }, back };
}

/** The result of an operation that was refused: its message and resolution, as the API answered. */
export function failed(outcome: Extract<Outcome<unknown>, { ok: false }>, back?: string): ActionResult {
  const flash: Flash = { kind: 'error', message: outcome.message, resolution: outcome.resolution };
  return back === undefined ? { flash } : { flash, back };
}

/** A query string kept from a page's filters ("?type=review&handled=false"), or "" when it is anything else. */
export function keptQuery(text: string | undefined): string {
  if (!text || !text.startsWith('?')) return '';
  return `?${new URLSearchParams(text.slice(1)).toString()}`;
}

/** The settings of the pages: the operator listener's. */
export type { OperatorRouteSettings as PagesSettings } from '../../core/operator/app.ts';

/** A whole number typed in a form field as a number; anything else as typed, for the API to refuse by name. */
export function numberField(text: string | undefined): number | string {
  const trimmed = (text ?? '').trim();
  return /^-?\d{1,15}$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A number with decimals (a rollout in percent: 0.5) typed in a form field as a number; anything else as typed. */
export function decimalField(text: string | undefined): number | string {
  const trimmed = (text ?? '').trim();
  return /^-?\d{1,15}(?:\.\d{1,15})?$/.test(trimmed) ? Number(trimmed) : trimmed;
}
