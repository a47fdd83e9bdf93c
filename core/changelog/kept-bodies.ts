/**
 * A feed's bodies with their validators, kept by page (core/changelog/pages.ts) and capped in bytes: a request
 * answered from them costs no serialization and no hash. The least recently asked body goes first once the
 * kept bytes pass the cap, so a flood of distinct pages holds at most the cap, and a page asked often stays.
 *
 * @module
 */
import type { Representation } from '../http/conditional.ts';

/** What a kept body is counted for beyond its bytes: the key, the tag, the map's slot. */
export const KEPT_BODY_OVERHEAD = 512;

/** The kept bodies of one feed. */
export interface KeptBodies {
  /**
   * The body of a page: the kept one, or `make`'s, kept once made. A body that failed to be made is not kept:
   * the next request makes it again.
   */
  body(key: string, make: () => Promise<Representation>): Promise<Representation>;
  /** Forgets every body (the entries changed). */
  clear(): void;
  /** The bytes the kept bodies count: each body's length and `KEPT_BODY_OVERHEAD`. Never above the cap. */
  readonly bytes: number;
  /** How many bodies are kept or being made. */
  readonly size: number;
}

/** One body: being made, or made with its counted bytes. */
interface Kept {
  made: Promise<Representation>;
  bytes: number;
}

/**
 * Creates the kept bodies of one feed.
 *
 * @param maxBytes The cap: the most bytes the kept bodies count. A body over it alone is served, not kept.
 */
export function createKeptBodies(maxBytes: number): KeptBodies {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const drop = (key: string, entry: Kept) => {
    if (kept.get(key) !== entry) return;
    kept.delete(key);
    bytes -= entry.bytes;
  };
  return {
    body(key, make) {
      const hit = kept.get(key);
      if (hit !== undefined) {
        // Asked again: the last to go.
        kept.delete(key);
        kept.set(key, hit);
        return hit.made;
      }
      const entry: Kept = { made: make(), bytes: 0 };
      kept.set(key, entry);
      entry.made.then((made) => {
        if (kept.get(key) !== entry) return;
        entry.bytes = made.body.byteLength + KEPT_BODY_OVERHEAD;
        bytes += entry.bytes;
        for (const [oldest, old] of kept) {
          if (bytes <= maxBytes) break;
          drop(oldest, old);
        }
      }, () => drop(key, entry));
      return entry.made;
    },
    clear() {
      kept.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return kept.size;
    },
  };
}
