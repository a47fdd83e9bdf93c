/**
 * The unit of work on SQL (core/ports/change.ts): one transaction, and the stores built again over it,
 * so that every statement a change sends runs in it and commits with it.
 *
 * @module
 */
import type { ChangeStore, LockedTable, StorageChange } from '../../core/ports/change.ts';
import type { SqlClient, SqlSession } from './client.ts';

const LOCKS: Record<LockedTable, string> = {
  // Share row exclusive: one holder at a time, and readers (GET /version's view) never wait for it.
  releases: 'lock table releases in share row exclusive mode',
};

/** How each store of a change is built over its transaction (only those the change uses are built). */
export type ChangeStores = { [K in Exclude<keyof StorageChange, 'lock'>]: (db: SqlClient) => StorageChange[K] };

/** What the storage keeps in memory beside the database, told of a change's writes. */
export interface ChangeFollowers {
  /**
   * Runs a change in turn with the roadmap mirror's writes, and reloads what it says the change touched
   * once it committed (PGlite: roadmap-mirror.ts).
   */
  roadmap?: <T>(work: () => Promise<T>, touched: () => { features: boolean; votes: boolean }) => Promise<T>;
  /** Forgets whether a webhook endpoint is enabled (outbox.ts EndpointsKnown): before and after an endpoint change. */
  endpointsChanged?: () => void;
}

/** A transaction as the client the stores are built over: a transaction in it is the same one. */
function inTransaction(session: SqlSession, client: SqlClient): SqlClient {
  return {
    driver: client.driver,
    schema: client.schema,
    query: (text, params) => session.query(text, params),
    write: (text, params) => session.write(text, params),
    exec: (script) => session.exec(script),
    transaction: (work) => work(session),
    async readThenWrite(reads, decide) {
      const rows: Record<string, unknown>[][] = [];
      for (const read of reads) rows.push(await session.query<Record<string, unknown>>(read.text, read.params));
      const { result, write } = decide(rows);
      if (write) await session.query(write.text, write.params);
      return result;
    },
    close: () => Promise.reject(new Error('a change cannot close the database')),
  };
}

const ENDPOINT_CHANGES = new Set<PropertyKey>(['addEndpoint', 'updateEndpoint', 'deleteEndpoint']);
const VOTE_CHANGES = new Set<PropertyKey>(['merge', 'unmerge']);

/** `store` with `seen(member)` called before each of its methods runs. */
function watched<S extends object>(store: S, seen: (member: PropertyKey) => void): S {
  return new Proxy(store, {
    get(target, member) {
      const value = Reflect.get(target, member) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        seen(member);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * Creates `Storage.change` over a database.
 *
 * @param client The database.
 * @param stores Builds each of the change's stores over a client (the transaction).
 * @param followers What memory keeps beside the database (PGlite).
 */
export function createSqlChange(client: SqlClient, stores: ChangeStores, followers: ChangeFollowers = {}): ChangeStore['change'] {
  return async <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const touched = { features: false, votes: false, endpoints: false };
    const once = () =>
      client.transaction(async (session) => {
        const db = inTransaction(session, client);
        const built = new Map<keyof ChangeStores, unknown>();
        /** A store of the change, built on first use. */
        const store = <K extends keyof ChangeStores>(name: K, watch?: (member: PropertyKey) => void): StorageChange[K] => {
          if (!built.has(name)) built.set(name, watch ? watched(stores[name](db), watch) : stores[name](db));
          return built.get(name) as StorageChange[K];
        };
        const tx: StorageChange = {
          get releases() {
            return store('releases');
          },
          get features() {
            return store('features', (member) => {
              if (member !== 'list') touched.features = true;
              if (VOTE_CHANGES.has(member)) touched.votes = true;
            });
          },
          get inbox() {
            return store('inbox');
          },
          get orders() {
            return store('orders');
          },
          get outbox() {
            return store('outbox', (member) => {
              if (!ENDPOINT_CHANGES.has(member)) return;
              touched.endpoints = true;
              followers.endpointsChanged?.();
            });
          },
          get audit() {
            return store('audit');
          },
          get mail() {
            return store('mail');
          },
          get checkouts() {
            return store('checkouts');
          },
          get links() {
            return store('links');
          },
          get shipping() {
            return store('shipping');
          },
          lock: async (table) => {
            await session.query(LOCKS[table]);
          },
        };
        return work(tx);
      });
    try {
      return await (followers.roadmap ? followers.roadmap(once, () => touched) : once());
    } finally {
      if (touched.endpoints) followers.endpointsChanged?.();
    }
  };
}
