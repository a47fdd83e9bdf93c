/**
 * The undo log of a memory change (change.ts): each write a change makes through its stores records how to
 * undo exactly that write (a key's previous value, the removal of the record it added), and a change that
 * throws replays its log backwards. Writes made outside the change meanwhile (the public path's, the
 * workers') record nothing and are never undone.
 *
 * @module
 */

/** Records how to undo one write; absent outside a change. */
export type Undo = (step: () => void) => void;

/** A memory store as a change or the storage sees it: `undo` given, its writes record their undoing. */
export type MemoryFace<S> = (undo?: Undo) => S;

/** Puts `key` back into a map kept in numeric key order (ids), where it was. */
function reinsert<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (typeof key !== 'number') return;
  const entries = [...map].sort(([a], [b]) => (a as number) - (b as number));
  map.clear();
  for (const [k, v] of entries) map.set(k, v);
}

/** Sets `key` of `map`; its undo puts back the value the key had, or removes it. */
export function setKey<K, V>(map: Map<K, V>, key: K, value: V, undo: Undo | undefined): void {
  if (undo) {
    const had = map.has(key);
    const before = map.get(key) as V;
    undo(() => had ? map.set(key, before) : map.delete(key));
  }
  map.set(key, value);
}

/** Deletes `key` of `map`; its undo puts the value back (in id order for numeric keys). Whether it was there. */
export function deleteKey<K, V>(map: Map<K, V>, key: K, undo: Undo | undefined): boolean {
  if (undo && map.has(key)) {
    const before = map.get(key) as V;
    undo(() => reinsert(map, key, before));
  }
  return map.delete(key);
}

/** Adds `value` to `set`; its undo removes it, when it was not a member before. */
export function addMember<T>(set: Set<T>, value: T, undo: Undo | undefined): void {
  if (undo && !set.has(value)) undo(() => set.delete(value));
  set.add(value);
}

/** Removes `value` from `set`; its undo adds it again, when it was a member. */
export function deleteMember<T>(set: Set<T>, value: T, undo: Undo | undefined): void {
  if (undo && set.has(value)) undo(() => set.add(value));
  set.delete(value);
}

/** Changes some fields of a stored record in place; its undo puts back those fields' values, and only those. */
export function patch<T extends object>(record: T, fields: Partial<T>, undo: Undo | undefined): void {
  if (undo) {
    const before: Partial<T> = {};
    for (const key of Object.keys(fields) as (keyof T)[]) before[key] = record[key];
    undo(() => Object.assign(record, before));
  }
  Object.assign(record, fields);
}

/** Adds `record` to `list` (first or last); its undo removes that very record, wherever it is by then. */
export function addRecord<T>(list: T[], record: T, where: 'first' | 'last', undo: Undo | undefined): void {
  if (undo) {
    undo(() => {
      const at = list.indexOf(record);
      if (at >= 0) list.splice(at, 1);
    });
  }
  if (where === 'first') list.unshift(record);
  else list.push(record);
}
