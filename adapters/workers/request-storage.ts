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

/**
 * Every Storage method, required: a method added to the port and not routed here fails the type check.
 * Each forwards all its arguments (`...args`), so a parameter added to a method (an emit) is never dropped.
 */
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
    addFeedback: (...args) => current().addFeedback(...args),
    recordDownload: (...args) => current().recordDownload(...args),
    syncRoadmap: (...args) => current().syncRoadmap(...args),
    listRoadmap: (...args) => current().listRoadmap(...args),
    toggleVote: (...args) => current().toggleVote(...args),
    createCheckout: (...args) => current().createCheckout(...args),
    openCheckouts: (...args) => current().openCheckouts(...args),
    openCheckoutTotals: (...args) => current().openCheckoutTotals(...args),
    getCheckout: (...args) => current().getCheckout(...args),
    advanceCheckout: (...args) => current().advanceCheckout(...args),
    saveLicenses: (...args) => current().saveLicenses(...args),
    getLicenses: (...args) => current().getLicenses(...args),
    secret: (...args) => current().secret(...args),
    rateLimits: { hit: (...args) => current().rateLimits.hit(...args) },
    releases: {
      listReleases: (...args) => current().releases.listReleases(...args),
      publishRelease: (...args) => current().releases.publishRelease(...args),
      setRollout: (...args) => current().releases.setRollout(...args),
      pullRelease: (...args) => current().releases.pullRelease(...args),
      restoreRelease: (...args) => current().releases.restoreRelease(...args),
      haltRelease: (...args) => current().releases.haltRelease(...args),
      resumeRelease: (...args) => current().releases.resumeRelease(...args),
    },
    audit: {
      record: (...args) => current().audit.record(...args),
      list: (...args) => current().audit.list(...args),
    },
    features: {
      list: (...args) => current().features.list(...args),
      create: (...args) => current().features.create(...args),
      update: (...args) => current().features.update(...args),
      merge: (...args) => current().features.merge(...args),
      unmerge: (...args) => current().features.unmerge(...args),
    },
    outbox: {
      addEndpoint: (...args) => current().outbox.addEndpoint(...args),
      listEndpoints: (...args) => current().outbox.listEndpoints(...args),
      updateEndpoint: (...args) => current().outbox.updateEndpoint(...args),
      enqueue: (...args) => current().outbox.enqueue(...args),
      claimDue: (...args) => current().outbox.claimDue(...args),
      recordAttempt: (...args) => current().outbox.recordAttempt(...args),
      listDeliveries: (...args) => current().outbox.listDeliveries(...args),
      replay: (...args) => current().outbox.replay(...args),
      replayFailed: (...args) => current().outbox.replayFailed(...args),
      sendTest: (...args) => current().outbox.sendTest(...args),
      deleteEndpoint: (...args) => current().outbox.deleteEndpoint(...args),
      rotateSecret: (...args) => current().outbox.rotateSecret(...args),
    },
    usage: {
      add: (...args) => current().usage.add(...args),
      list: (...args) => current().usage.list(...args),
    },
    inbox: {
      countByDay: (...args) => current().inbox.countByDay(...args),
      countByVersion: (...args) => current().inbox.countByVersion(...args),
      list: (...args) => current().inbox.list(...args),
      setHandled: (...args) => current().inbox.setHandled(...args),
    },
    orders: {
      recordPurchase: (...args) => current().orders.recordPurchase(...args),
      get: (...args) => current().orders.get(...args),
      find: (...args) => current().orders.find(...args),
      ofLicenseKey: (...args) => current().orders.ofLicenseKey(...args),
      sessionOfPayment: (...args) => current().orders.sessionOfPayment(...args),
      countByDay: (...args) => current().orders.countByDay(...args),
      flag: (...args) => current().orders.flag(...args),
      keepPaymentEvent: (...args) => current().orders.keepPaymentEvent(...args),
      takePaymentEvents: (...args) => current().orders.takePaymentEvents(...args),
      override: (...args) => current().orders.override(...args),
      addPlusKey: (...args) => current().orders.addPlusKey(...args),
    },
    mail: {
      enqueue: (...args) => current().mail.enqueue(...args),
      claimDue: (...args) => current().mail.claimDue(...args),
      recordAttempt: (...args) => current().mail.recordAttempt(...args),
      list: (...args) => current().mail.list(...args),
      counts: (...args) => current().mail.counts(...args),
    },
    ping: (...args) => current().ping(...args),
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
