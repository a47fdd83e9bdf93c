/**
 * SQL storage for a Cloudflare Worker: one database client per request. Workers bind every socket to
 * the request that opened it (another request may not use it), and Hyperdrive pools the connections to
 * the database, so each request opens its own client on first use and closes it through
 * `ctx.waitUntil` once its answer and its background work are done. The app is built once per isolate
 * over `storage`, whose every call runs on the client of the request it serves (found through
 * AsyncLocalStorage, which Workers offer with the `nodejs_compat` flag).
 *
 * Nothing is batched across requests: a statement sent on one request's socket for another would stall
 * both when the first request ends or is cancelled. Each request's rate-limit hit is one statement,
 * still exact and timed by the database clock; every write is committed before the answer.
 *
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Storage } from '../../core/ports/ports.ts';
import type { SqlClient } from '../sql/client.ts';
import { createSharedRateLimitState } from '../sql/shared-rate-limits.ts';
import { createSqlStorage, type SqlStorage } from '../sql/storage.ts';
import type { WorkerContext } from './index.ts';

interface Scope {
  ctx: WorkerContext;
  storage: SqlStorage | null;
  background: Promise<unknown>[];
}

/** A client never used: the SQL storage built over it only shows its members (nothing runs at construction). */
const UNUSED: SqlClient = {
  driver: 'postgres',
  schema: 'public',
  query: () => Promise.reject(new Error('unused')),
  write: () => Promise.reject(new Error('unused')),
  exec: () => Promise.reject(new Error('unused')),
  transaction: () => Promise.reject(new Error('unused')),
  readThenWrite: () => Promise.reject(new Error('unused')),
  close: async () => {},
};

/**
 * The names of the storage's sub-stores: the members of a SQL storage that are objects of methods, read
 * from one built over an unused client. A store added to the SQL storage (to its roster of the stores a
 * change writes, or beside it) is forwarded with no line written here, so no call can reach the
 * isolate's storage object instead of the request's. The request's `client` is its own, never forwarded.
 */
export function subStoreNames(storage: SqlStorage): string[] {
  return Object.entries(storage).filter(([name, member]) => name !== 'client' && typeof member === 'object' && member !== null).map(([name]) => name);
}

/** Members never forwarded: the client is closed per request (`settle`), and the storage is no promise. */
const NOT_FORWARDED = new Set<PropertyKey>(['close', 'then']);

type Methods = Record<PropertyKey, (...args: unknown[]) => unknown>;

/**
 * An object whose every method runs on `resolve()`'s object of the moment, with all its arguments: a
 * method added to the port, or a parameter added to one, is forwarded with no line written here.
 */
function forwarding(resolve: () => Methods, subStores: ReadonlyMap<PropertyKey, unknown> = new Map()): Methods {
  const methods = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  return new Proxy({} as Methods, {
    get(_target, name) {
      if (subStores.has(name)) return subStores.get(name);
      if (typeof name === 'symbol' || NOT_FORWARDED.has(name)) return undefined;
      let method = methods.get(name);
      if (method === undefined) methods.set(name, method = (...args) => resolve()[name]!(...args));
      return method;
    },
  });
}

/** Storage whose calls run on the current request's client. */
export interface RequestStorage {
  /** The storage to build the app with, once per isolate. */
  readonly storage: Storage;
  /**
   * Serves one request: `work` and every storage call it makes use this request's client, which is
   * closed after `work` and the request's background work have settled.
   */
  run<T>(ctx: WorkerContext, work: () => Promise<T>): Promise<T>;
  /** The current request's SQL storage, opening its client (for checks and retention). */
  current(): SqlStorage;
  /** Work of the current request that may end after its answer; its client stays open until then. */
  background(work: Promise<unknown>): void;
}

/**
 * Creates the request-scoped storage.
 *
 * @param open Opens a client for one request (postgres.js over `cloudflare:sockets`, lazily connected).
 */
export function createRequestStorage(open: () => SqlClient): RequestStorage {
  const scopes = new AsyncLocalStorage<Scope>();

  const scope = (): Scope => {
    const found = scopes.getStore();
    if (!found) throw new Error('the database was used outside a request');
    return found;
  };
  // A hit never waits for company (there is none), and its deadline includes opening the request's
  // connection (connect timeout 1 s): past it, the request is counted on the isolate's own counters.
  // One rate-limit state per isolate: the key secret is read once, and the local counters of an outage
  // last from request to request.
  const rateLimitState = createSharedRateLimitState();
  const current = (): SqlStorage => {
    const s = scope();
    return (s.storage ??= createSqlStorage(open(), { rateLimit: { collectMs: 0, timeoutMs: 1300 }, rateLimitState }));
  };

  /** Waits for the background work (which may add more), then closes the client if one was opened. */
  const settle = async (s: Scope): Promise<void> => {
    while (s.background.length > 0) await Promise.allSettled(s.background.splice(0));
    await s.storage?.close().catch(() => undefined);
  };

  const methodsOf = (value: unknown) => value as Methods;
  const names = subStoreNames(createSqlStorage(UNUSED));
  const subStores = new Map(names.map((name) => [name, forwarding(() => methodsOf(current()[name as keyof SqlStorage]))] as const));
  const storage = forwarding(() => methodsOf(current()), subStores) as unknown as Storage;

  return {
    storage,
    current,
    background(work) {
      const s = scope();
      s.background.push(work);
      s.ctx.waitUntil(work);
    },
    run(ctx, work) {
      const s: Scope = { ctx, storage: null, background: [] };
      return scopes.run(s, async () => {
        try {
          return await work();
        } finally {
          ctx.waitUntil(settle(s));
        }
      });
    },
  };
}
