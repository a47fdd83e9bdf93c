/**
 * Dispatch over a route table: exact paths are found by one Map lookup, patterns (`/a/:id`) by their
 * compiled regexes, and a known path gives its Allow list for 405 answers.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from './http.ts';
import type { MaybePromise } from './ports.ts';
import { remember } from './remember.ts';

/** A routed handler; `params` holds the named segments of a pattern route. */
export type Handler = (request: CoreRequest, params: Record<string, string>) => MaybePromise<CoreResponse>;

/** What a path and method lead to. */
export type Match =
  | { kind: 'handler'; handler: Handler; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: string }
  | { kind: 'not_found' };

export interface Router {
  /** Adds a route; `path` is an exact path or a pattern whose `:name` segments match one segment each (`/a/:id`). */
  add(method: string, path: string, handler: Handler): Router;
  match(method: string, path: string): Match;
  /** The path template a path falls under, whatever the method (`/checkout/simulator/:id`), or null. */
  template(path: string): string | null;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NOT_FOUND: Match = Object.freeze({ kind: 'not_found' });
/** How many unmatched paths the router remembers, so that a client repeating one skips the patterns. */
const UNMATCHED_CACHE_SIZE = 1024;

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a path answers, in a fixed order: HEAD goes with GET, and OPTIONS is always answered. */
function allowList(methods: Iterable<string>): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return [...set].sort((a, b) => rank(a) - rank(b)).join(', ');
}

/**
 * The regex of a pattern: each `:name` segment matches one non-empty segment, captured as `name`.
 *
 * @throws Error for any other special character (`*`, `+`, `?`, `(`): no route needs one.
 */
export function compilePattern(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      const param = /^:([A-Za-z_]\w*)$/.exec(segment);
      if (param) return `(?<${param[1]}>[^/]+)`;
      if (/[^\w.~-]/.test(segment)) throw new Error(`unsupported route pattern segment "${segment}" in ${pattern}`);
      return segment.replace(/\./g, '\\.');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

/** Drops trailing slashes ("/api/v1/pricing/" is "/api/v1/pricing"). */
export function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** Creates an empty router. */
export function createRouter(): Router {
  const exact = new Map<string, Map<string, Handler>>();
  const allow = new Map<string, string>();
  const patterns: { method: string; regex: RegExp; handler: Handler; path: string }[] = [];
  const unmatched = new Map<string, true>();

  const router: Router = {
    add(method, path, handler) {
      unmatched.clear();
      if (path.includes(':')) {
        patterns.push({ method, regex: compilePattern(path), handler, path });
      } else {
        let methods = exact.get(path);
        if (!methods) exact.set(path, (methods = new Map()));
        methods.set(method, handler);
        allow.set(path, allowList(methods.keys()));
      }
      return router;
    },

    match(method, rawPath) {
      const path = trimSlashes(rawPath);
      const methods = exact.get(path);
      if (methods) {
        const handler = methods.get(method === 'HEAD' ? 'GET' : method);
        if (handler) return { kind: 'handler', handler, params: NO_PARAMS };
        return { kind: 'method_not_allowed', allow: allow.get(path)! };
      }
      // A path that matched nothing stays unmatched, for every method, until a route is added.
      if (unmatched.has(path)) return NOT_FOUND;
      const allowed: string[] = [];
      for (const route of patterns) {
        const found = route.regex.exec(path);
        if (!found) continue;
        if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
          return { kind: 'handler', handler: route.handler, params: { ...found.groups } };
        }
        allowed.push(route.method);
      }
      if (allowed.length > 0) return { kind: 'method_not_allowed', allow: allowList(allowed) };
      remember(unmatched, UNMATCHED_CACHE_SIZE, path, true);
      return NOT_FOUND;
    },

    template(rawPath) {
      const path = trimSlashes(rawPath);
      if (exact.has(path)) return path;
      if (unmatched.has(path)) return null;
      return patterns.find((route) => route.regex.test(path))?.path ?? null;
    },
  };
  return router;
}
