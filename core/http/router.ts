/**
 * Dispatch over a route table: exact paths are found by one Map lookup, patterns (`/a/:id`) by their
 * segments (checked by compilePattern), and a known path gives its Allow list for 405 answers. A match of an exact path is
 * built once when the route is added, so routing a request allocates nothing.
 *
 * @module
 */
import type { CoreRequest } from './http.ts';
import type { Answer } from './maybe.ts';

/** A routed handler; `params` holds the named segments of a pattern route. */
export type Handler = (request: CoreRequest, params: Record<string, string>) => Answer;

/** How the pipeline treats a route's requests. */
export interface RouteFlags {
  /**
   * Counted against the client's quota and given the rate-limit and CORS headers; true by default.
   * The probes are not: no client's quota pays for a balancer's checks.
   */
  metered?: boolean;
  /**
   * The handler only reads storage: with counters that answer later (PostgreSQL) it starts beside the
   * rate-limit hit instead of after it (see `readsOnly` in api.ts).
   */
  readsOnly?: boolean;
  /**
   * With `metered: false`: its 2xx and 3xx answers are outside every quota and carry nothing per client
   * (a cache may hand them to anyone: the update files), but an error answer is counted and given the
   * rate-limit headers like every error.
   */
  meteredOnError?: boolean;
}

/** What a path and method lead to. `template` is the route's path (`/checkout/simulator/:id`). */
export type Match =
  | {
    readonly kind: 'handler';
    readonly handler: Handler;
    readonly params: Record<string, string>;
    readonly template: string;
    readonly metered: boolean;
    readonly readsOnly: boolean;
    readonly meteredOnError?: boolean;
  }
  | { readonly kind: 'method_not_allowed'; readonly allow: string; readonly template: string; readonly metered: boolean }
  | { readonly kind: 'not_found'; readonly template: null; readonly metered: true };

export interface Router {
  /** Adds a route; `path` is an exact path or a pattern whose `:name` segments match one segment each (`/a/:id`). */
  add(method: string, path: string, handler: Handler, flags?: RouteFlags): Router;
  match(method: string, path: string): Match;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NOT_FOUND: Match = Object.freeze({ kind: 'not_found', template: null, metered: true });

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods a path answers, in a fixed order: HEAD goes with GET, and OPTIONS (the CORS preflight)
 * on every metered path.
 */
function allowList(methods: Iterable<string>, metered: boolean): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  if (metered) set.add('OPTIONS');
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

/**
 * A pattern's segments: the literal text of each, or null for a `:name` (its name in `names`). Matching
 * compares segments: 0.17 us a path where a regex with named groups took 0.57 (issue 54, the update files).
 */
interface Segments {
  literal: (string | null)[];
  names: (string | null)[];
}

function segmentsOf(pattern: string): Segments {
  const parts = pattern.split('/');
  return {
    literal: parts.map((part) => (part.startsWith(':') ? null : part)),
    names: parts.map((part) => (part.startsWith(':') ? part.slice(1) : null)),
  };
}

/** The parameters of a path split at '/', or null when it does not match: each parameter one non-empty segment. */
function matchSegments({ literal, names }: Segments, parts: readonly string[]): Record<string, string> | null {
  if (parts.length !== literal.length) return null;
  let params: Record<string, string> | null = null;
  for (let i = 0; i < parts.length; i++) {
    const want = literal[i];
    const part = parts[i]!;
    if (want === null) {
      if (part === '') return null;
      (params ??= {})[names[i]!] = part;
    } else if (part !== want) return null;
  }
  return params ?? {};
}

/** Drops trailing slashes ("/api/v1/pricing/" is "/api/v1/pricing"). */
export function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** An exact path's matches: one per method, and the 405 of every other method. */
interface ExactPath {
  byMethod: Map<string, Match>;
  notAllowed: Match;
  metered: boolean;
}

interface PatternRoute {
  method: string;
  segments: Segments;
  handler: Handler;
  path: string;
  metered: boolean;
  readsOnly: boolean;
  meteredOnError: boolean;
}

/** Creates an empty router. */
export function createRouter(): Router {
  const exact = new Map<string, ExactPath>();
  /**
   * Pattern routes by their first segment when it is literal (`checkout` of `/checkout/simulator/:id`), so a
   * path is tested against the few patterns that can match it, in the order they were added; those whose
   * first segment is a parameter are tested for every path, after them.
   */
  const patternsByHead = new Map<string, PatternRoute[]>();
  const anyHead: PatternRoute[] = [];
  const headOf = (path: string) => {
    const end = path.indexOf('/', 1);
    return end < 0 ? path.slice(1) : path.slice(1, end);
  };

  const router: Router = {
    add(method, path, handler, flags = {}) {
      const metered = flags.metered ?? true;
      const readsOnly = flags.readsOnly ?? false;
      const meteredOnError = flags.meteredOnError ?? false;
      if (meteredOnError && metered) throw new Error(`route ${method} ${path}: meteredOnError is for a route that is not metered`);
      if (path.includes(':')) {
        compilePattern(path); // refuses the syntax no route needs
        const route = { method, segments: segmentsOf(path), handler, path, metered, readsOnly, meteredOnError };
        const head = headOf(path);
        if (head.startsWith(':')) anyHead.push(route);
        else patternsByHead.set(head, [...(patternsByHead.get(head) ?? []), route]);
        return router;
      }
      if (meteredOnError) throw new Error(`route ${method} ${path}: meteredOnError is for pattern routes`);
      const entry = exact.get(path) ?? { byMethod: new Map<string, Match>(), notAllowed: NOT_FOUND, metered };
      if (entry.metered !== metered) throw new Error(`route ${method} ${path}: every method of a path is metered alike`);
      entry.byMethod.set(method, Object.freeze({ kind: 'handler', handler, params: NO_PARAMS, template: path, metered, readsOnly }));
      const allow = allowList(entry.byMethod.keys(), metered);
      entry.notAllowed = Object.freeze({ kind: 'method_not_allowed', allow, template: path, metered });
      exact.set(path, entry);
      return router;
    },

    match(method, rawPath) {
      const path = trimSlashes(rawPath);
      const entry = exact.get(path);
      if (entry) return entry.byMethod.get(method === 'HEAD' ? 'GET' : method) ?? entry.notAllowed;
      const allowed: string[] = [];
      let template = '';
      let metered = true;
      const candidates = patternsByHead.get(headOf(path));
      if (candidates === undefined && anyHead.length === 0) return NOT_FOUND;
      const parts = path.split('/');
      for (const route of candidates === undefined ? anyHead : anyHead.length === 0 ? candidates : [...candidates, ...anyHead]) {
        const found = matchSegments(route.segments, parts);
        if (found === null) continue;
        if (route.method === method || (method === 'HEAD' && route.method === 'GET')) {
          const { handler, readsOnly, meteredOnError } = route;
          const params = found;
          return meteredOnError
            ? { kind: 'handler', handler, params, template: route.path, metered: false, readsOnly, meteredOnError }
            : { kind: 'handler', handler, params, template: route.path, metered: route.metered, readsOnly };
        }
        allowed.push(route.method);
        template = route.path;
        // A wrong method is an error: metered on a route whose errors are.
        metered = route.metered || route.meteredOnError;
      }
      if (allowed.length === 0) return NOT_FOUND;
      return { kind: 'method_not_allowed', allow: allowList(allowed, metered), template, metered };
    },
  };
  return router;
}
