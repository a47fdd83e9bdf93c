/**
 * The unit of work on SQL (core/ports/change.ts): one transaction, and the stores built again over it,
 * so that every statement a change sends runs in it and commits with it.
 *
 * @module
 */
import type { ChangedStoreName, ChangeStore, LockedTable, OutsideStores, StorageChange, WholeStores } from '../../core/ports/change.ts';
import type { SqlClient, SqlSession } from './client.ts';

const LOCKS: Record<LockedTable, string> = {
  // Share row exclusive: one holder at a time, and readers (GET /version's view) never wait for it.
  releases: 'lock table releases in share row exclusive mode',
};

/**
 * What the stores that feed a cache beside the database say of their writes (instead of being watched):
 * the features store that it wrote the roadmap, the outbox that an endpoint changed.
 */
export interface ChangeTouches {
  /** Features were written (PGlite's roadmap mirror reloads them); `votes` when votes moved too (merge, unmerge). */
  features(votes: boolean): void;
  /** The outbox's endpoints: `forget()` when one is added, changed or deleted (outbox.ts EndpointsKnown). */
  readonly endpoints: { forget(): void };
}

/** What a store says of its writes outside a change: nothing to follow (the storage's own faces). */
export const UNFOLLOWED: ChangeTouches = { features: () => {}, endpoints: { forget: () => {} } };

/**
 * The SQL storage's roster of the stores a change writes: how each is built over a client (the
 * database for the storage's face, a transaction for a change's), serving both faces.
 */
export type SqlStores = { readonly [K in ChangedStoreName]: (db: SqlClient, touches: ChangeTouches) => WholeStores[K] & OutsideStores[K] };

/** Every store of the roster, built over `db`: the storage's faces. */
export function storesOver(stores: SqlStores, db: SqlClient, touches: ChangeTouches): OutsideStores {
  const built: Partial<Record<ChangedStoreName, unknown>> = {};
  for (const name of Object.keys(stores) as ChangedStoreName[]) built[name] = stores[name](db, touches);
  return built as OutsideStores;
}

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

/**
 * Creates `Storage.change` over a database.
 *
 * @param client The database.
 * @param stores The roster: each of the change's stores, built over its transaction on first use.
 * @param followers What memory keeps beside the database (PGlite).
 */
export function createSqlChange(client: SqlClient, stores: SqlStores, followers: ChangeFollowers = {}): ChangeStore['change'] {
  return async <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const touched = { features: false, votes: false, endpoints: false };
    const touches: ChangeTouches = {
      features(votes) {
        touched.features = true;
        if (votes) touched.votes = true;
      },
      endpoints: {
        forget() {
          touched.endpoints = true;
          followers.endpointsChanged?.();
        },
      },
    };
    const once = () =>
      client.transaction(async (session) => {
        const db = inTransaction(session, client);
        const tx = {
          lock: async (table: LockedTable) => {
            await session.query(LOCKS[table]);
          },
        } as StorageChange;
        for (const name of Object.keys(stores) as ChangedStoreName[]) {
          let built: unknown;
          Object.defineProperty(tx, name, { enumerable: true, get: () => (built ??= stores[name](db, touches)) });
        }
        return work(tx);
      });
    try {
      return await (followers.roadmap ? followers.roadmap(once, () => touched) : once());
    } finally {
      if (touched.endpoints) followers.endpointsChanged?.();
    }
  };
}
