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

/** Every Storage method, required: a method added to the port and not routed here fails the type check. */
type Routed = { [K in keyof Omit<Storage, 'close'>]-?: NonNullable<Storage[K]> };

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

  const storage: Routed = {
    addFeedback: (entry, budget) => current().addFeedback(entry, budget),
    recordDownload: (event) => current().recordDownload(event),
    syncRoadmap: (features) => current().syncRoadmap(features),
    listRoadmap: (voterId) => current().listRoadmap(voterId),
    toggleVote: (featureId, voterId, network) => current().toggleVote(featureId, voterId, network),
    createCheckout: (session, owner) => current().createCheckout(session, owner),
    openCheckouts: (owner, now, limit) => current().openCheckouts(owner, now, limit),
    openCheckoutTotals: (now, limit) => current().openCheckoutTotals(now, limit),
    getCheckout: (id) => current().getCheckout(id),
    advanceCheckout: (id, state) => current().advanceCheckout(id, state),
    saveLicenses: (sessionId, keys, emit) => current().saveLicenses(sessionId, keys, emit),
    getLicenses: (sessionId) => current().getLicenses(sessionId),
    secret: (name, create) => current().secret(name, create),
    rateLimits: { hit: (key, windowMs, limit) => current().rateLimits.hit(key, windowMs, limit) },
    releases: {
      listReleases: () => current().releases.listReleases(),
      publishRelease: (release, emit, admit) => current().releases.publishRelease(release, emit, admit),
      setRollout: (version, percent, emit) => current().releases.setRollout(version, percent, emit),
      pullRelease: (version, at, emit) => current().releases.pullRelease(version, at, emit),
      restoreRelease: (version, emit) => current().releases.restoreRelease(version, emit),
    },
    audit: {
      record: (entry) => current().audit.record(entry),
      list: (limit) => current().audit.list(limit),
    },
    features: {
      list: () => current().features.list(),
      create: (fields, emit) => current().features.create(fields, emit),
      update: (id, fields, emit) => current().features.update(id, fields, emit),
      merge: (from, into, emit) => current().features.merge(from, into, emit),
    },
    outbox: {
      addEndpoint: (endpoint) => current().outbox.addEndpoint(endpoint),
      listEndpoints: () => current().outbox.listEndpoints(),
      updateEndpoint: (id, change) => current().outbox.updateEndpoint(id, change),
      enqueue: (event, at) => current().outbox.enqueue(event, at),
      claimDue: (now, leaseMs, limit, share) => current().outbox.claimDue(now, leaseMs, limit, share),
      recordAttempt: (id, outcome) => current().outbox.recordAttempt(id, outcome),
      listDeliveries: (filter) => current().outbox.listDeliveries(filter),
      replay: (id, at) => current().outbox.replay(id, at),
    },
    usage: {
      add: (counts) => current().usage.add(counts),
      list: (fromDay, toDay) => current().usage.list(fromDay, toDay),
    },
    inbox: {
      countByDay: (fromDay, toDay) => current().inbox.countByDay(fromDay, toDay),
      list: (filter) => current().inbox.list(filter),
      setHandled: (id, handled, at) => current().inbox.setHandled(id, handled, at),
    },
    orders: {
      recordPurchase: (id, purchase, at) => current().orders.recordPurchase(id, purchase, at),
      get: (id) => current().orders.get(id),
      find: (filter) => current().orders.find(filter),
      sessionOfPayment: (ref) => current().orders.sessionOfPayment(ref),
      countByDay: (fromDay, toDay) => current().orders.countByDay(fromDay, toDay),
      flag: (id, flag, emit, dispute) => current().orders.flag(id, flag, emit, dispute),
      keepPaymentEvent: (ref, event, at) => current().orders.keepPaymentEvent(ref, event, at),
      takePaymentEvents: (ref) => current().orders.takePaymentEvents(ref),
      override: (id, override, reason, at, emit) => current().orders.override(id, override, reason, at, emit),
      addPlusKey: (id, key, emit) => current().orders.addPlusKey(id, key, emit),
    },
    mail: {
      enqueue: (mail, at) => current().mail.enqueue(mail, at),
      claimDue: (now, leaseMs, limit) => current().mail.claimDue(now, leaseMs, limit),
      recordAttempt: (id, attempt) => current().mail.recordAttempt(id, attempt),
      list: (filter) => current().mail.list(filter),
      counts: (from, to) => current().mail.counts(from, to),
    },
    ping: () => current().ping(),
  };

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
