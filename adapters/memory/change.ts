/**
 * The unit of work in memory (core/ports/change.ts): changes run one at a time, and a change's stores are
 * faces of the memory stores that record how to undo each of its writes (undo.ts); a change that throws
 * replays that log backwards. Only the change's own writes are undone: what the public path and the
 * workers wrote meanwhile (a change may await a timer or a signature) stays.
 *
 * @module
 */
import type { ChangedStoreName, ChangeStore, StorageChange, WholeStores } from '../../core/ports/change.ts';
import type { MemoryFace, Undo } from './undo.ts';

/** The memory storage's roster of the stores a change writes: each a face maker over its state (undo.ts). */
export type MemoryStores = { readonly [K in ChangedStoreName]: MemoryFace<WholeStores[K]> };

/** A face of every store: recording its writes' undoing in `undo`, or not (outside a change). */
export function facesOf(stores: MemoryStores, undo?: Undo): WholeStores {
  const faces: Partial<Record<ChangedStoreName, unknown>> = {};
  for (const name of Object.keys(stores) as ChangedStoreName[]) faces[name] = stores[name](undo);
  return faces as WholeStores;
}

/** Creates `Storage.change` over the memory stores. */
export function createMemoryChange(stores: MemoryStores): ChangeStore['change'] {
  let tail: Promise<unknown> = Promise.resolve();

  const run = async <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const log: (() => void)[] = [];
    const tx: StorageChange = {
      ...facesOf(stores, (step) => void log.push(step)),
      // Changes run one at a time: holding a table is holding the turn.
      lock: async () => {},
    };
    try {
      return await work(tx);
    } catch (error) {
      for (let i = log.length - 1; i >= 0; i--) log[i]!();
      throw error;
    }
  };

  return <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const result = tail.then(() => run(work));
    tail = result.catch(() => undefined);
    return result;
  };
}
