/**
 * What the parts of the storage contract are given: a way to declare a case, and in each case the
 * storage under test (fresh and empty) with the hooks the suite's caller provided.
 *
 * @module
 */
import type { ChangedStoreName, Storage, WholeStores } from '../../core/ports/ports.ts';

/** One case's storage and hooks. */
export interface ContractContext {
  /** A fresh, empty storage made for this case. */
  readonly storage: Storage;
  /** Ends every rate-limit window of `storage` now (only cases registered with `canEndWindows` call it). */
  endWindows(): Promise<void>;
}

/** Declares the cases of a part. */
export interface ContractSuite {
  (name: string, run: (context: ContractContext) => Promise<void>): void;
  /** Whether the caller can end rate-limit windows: the cases that need it are declared only then. */
  readonly canEndWindows: boolean;
}

/** The storage of the running case, and its hooks. */
export function current(context: ContractContext): ContractContext {
  return context;
}

/**
 * The stores a change writes, whole, where each call runs in a change of its own: how a part checks one
 * store's writes and reads one call at a time (`Storage` has those writes only in a change).
 */
export function oneChangeEach(storage: Storage): WholeStores {
  const store = (name: PropertyKey) =>
    new Proxy({}, {
      get: (_, method) => (...args: unknown[]) =>
        storage.change((tx) => (tx[name as ChangedStoreName] as unknown as Record<PropertyKey, (...a: unknown[]) => Promise<unknown>>)[method]!(...args)),
    });
  return new Proxy({} as WholeStores, { get: (_, name) => store(name) });
}
