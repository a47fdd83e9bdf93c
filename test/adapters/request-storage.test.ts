/**
 * The Worker's request-scoped storage (adapters/workers/request-storage.ts) forwards every sub-store: its
 * list of them is read from a SQL storage, so it names each member of `Storage` that is an object of
 * methods (the memory storage has the same ones), and a call on one runs on the request's own client.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { createRequestStorage, subStoreNames } from '../../adapters/workers/request-storage.ts';

/** A client that answers every query with no rows and keeps its text, marked with the request it serves. */
function recordingClient(request: string, sent: string[]): SqlClient {
  const answer = async (text: string) => {
    sent.push(`${request}: ${text.split(/\s+/).slice(0, 2).join(' ')}`);
    return [];
  };
  return {
    driver: 'postgres',
    schema: 'public',
    query: answer,
    write: answer,
    exec: async () => {},
    transaction: () => Promise.reject(new Error('no transaction here')),
    readThenWrite: () => Promise.reject(new Error('no transaction here')),
    close: async () => {},
  } as unknown as SqlClient;
}

test("every sub-store of Storage is forwarded: the names read from a SQL storage are the memory storage's too", () => {
  const sql = subStoreNames(createSqlStorage(recordingClient('none', [])));
  const memory = Object.entries(createMemoryStorage()).filter(([, member]) => typeof member === 'object' && !Array.isArray(member)).map(([name]) => name);
  assert.equal([...sql].sort(), [...memory].sort());
  const { storage } = createRequestStorage(() => recordingClient('none', []));
  const forwarded = sql.filter((name) => typeof (storage as unknown as Record<string, unknown>)[name] === 'object');
  assert.equal(forwarded, sql);
});

test("a sub-store's call runs on the client of the request it serves", async () => {
  const sent: string[] = [];
  let opened = 0;
  const requests = createRequestStorage(() => recordingClient(`request ${++opened}`, sent));
  const ctx = { waitUntil: () => {} };
  const { releases } = requests.storage;
  await requests.run(ctx, () => releases.listReleases());
  await requests.run(ctx, () => requests.storage.links.linked());
  assert.equal(sent, ['request 1: select version,', 'request 2: select id::float8']);
});

test.run();
