/**
 * The `Storage` row of docs/architecture.md's Ports table names every member of the `Storage` type, no
 * more, with `?` on the optional ones. The members come from STORAGE_MEMBERS below, which the compiler
 * keeps equal to `keyof Storage` (test/typecheck.test.ts fails when a member is added or dropped without it).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Storage } from '../../core/storage.ts';
import { ROOT } from '../_spawn.ts';

/** For each member of Storage: whether an implementation may leave it out. */
type StorageMembers = { [K in keyof Storage]-?: object extends Pick<Storage, K> ? 'optional' : 'required' };

const STORAGE_MEMBERS: StorageMembers = {
  intake: 'required',
  roadmap: 'required',
  checkouts: 'required',
  secret: 'required',
  rateLimits: 'required',
  releases: 'required',
  audit: 'required',
  inbox: 'required',
  features: 'required',
  usage: 'required',
  installs: 'required',
  outbox: 'required',
  orders: 'required',
  mail: 'required',
  links: 'required',
  shipping: 'required',
  updateFiles: 'required',
  change: 'required',
  ping: 'required',
  close: 'optional',
};

/** The members the `Storage` row's Methods cell names: each `name` or `name?` in backticks, in order. */
export function documentedMembers(architecture: string): string[] {
  const row = architecture.split('\n').find((line) => line.startsWith('| `Storage` |'));
  if (row === undefined) throw new Error('docs/architecture.md has no `Storage` row in its Ports table');
  const methods = row.split(' | ')[1] ?? '';
  // Sub-port names in the cell (`IntakeStore`, file names) start with a capital or hold a dot or slash.
  return [...methods.matchAll(/`([a-z][A-Za-z]*\??)`/g)].map((match) => match[1]!);
}

const expected = Object.entries(STORAGE_MEMBERS).map(([name, kind]) => (kind === 'optional' ? `${name}?` : name));

test('the Ports table names every member of Storage, no more, optional ones with ?', () => {
  const documented = documentedMembers(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
  assert.equal(
    documented.filter((name) => !expected.includes(name)),
    [],
    'named in the table, not members of Storage',
  );
  assert.equal(
    expected.filter((name) => !documented.includes(name)),
    [],
    'members of Storage missing from the table',
  );
  assert.equal(documented.length, new Set(documented).size, 'each member once');
});

test('the check sees a missing and an extra member', () => {
  const row = '| `Storage` | `addFeedback`, `ping`, `close?`, `vanished` (the `IntakeStore` of `core/ports/x.ts`) | `adapters/memory` |';
  assert.equal(documentedMembers(`# Ports\n${row}\n`), ['addFeedback', 'ping', 'close?', 'vanished']);
});

test.run();
