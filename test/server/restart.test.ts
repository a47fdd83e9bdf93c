/**
 * Votes, feedback and licenses survive a restart of the server program, on PGlite (DATA_DIR) and on
 * Postgres (DATABASE_URL, else the stand-in).
 */
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPgliteClient } from '../../adapters/pglite/index.ts';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { sqlExportSource } from '../../adapters/sql/export.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { sendHttp } from '../_setup.ts';
import { closeTestDatabases, freshPgliteDir, testPostgres } from '../_databases.ts';
import { startServerProcess } from '../_spawn.ts';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  from: '127.0.0.9',
});

interface Target {
  name: string;
  env(): Promise<Record<string, string>>;
  /** A client on the stored data, opened after the server has stopped. */
  client(): Promise<SqlClient>;
  cleanup(): Promise<void>;
}

let dataDir = '';
let schema = '';

const targets: Target[] = [
  {
    name: 'pglite',
    env: async () => {
      dataDir = await freshPgliteDir();
      return { STORAGE: 'pglite', DATA_DIR: dataDir };
    },
    client: () => createPgliteClient({ dataDir }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  },
  {
    name: 'postgres',
    env: async () => {
      const pg = await testPostgres();
      schema = await pg.freshSchema();
      return { DATABASE_URL: pg.url, DATABASE_SCHEMA: schema };
    },
    client: async () => createPostgresClient({ url: (await testPostgres()).url, schema }),
    cleanup: async () => {
      await (await testPostgres()).dropSchema(schema);
      await closeTestDatabases();
    },
  },
];

for (const target of targets) {
  const test = suite(`restart on ${target.name}`);
  test.after(target.cleanup);

  test('a vote, a feedback entry and a paid license are all there after a restart', async () => {
    const env = await target.env();
    const first = await startServerProcess(env);
    const vote = await sendHttp(first.port, { path: '/api/v1/roadmap', ...json({ featureId: 3 }) });
    assert.equal(vote.json(), { voted: true, vote_count: 1 });
    const feedback = await sendHttp(first.port, { path: '/api/v1/feedback', ...json({ description: 'Keep me', rating: 4 }) });
    assert.is(feedback.status, 201);
    const created = (await sendHttp(first.port, { path: '/api/v1/checkout/create', ...json({ product: 'plus_bundle' }) })).json() as {
      sessionId: string;
    };
    const pay = await sendHttp(first.port, { method: 'POST', path: `/checkout/simulator/${created.sessionId}/pay`, from: '127.0.0.9' });
    assert.is(pay.status, 303);
    const statusPath = `/api/v1/checkout/status?session_id=${created.sessionId}`;
    const paid = await sendHttp(first.port, { path: statusPath, from: '127.0.0.9' });
    assert.is(paid.status, 200);
    assert.is(await first.stop(), 0);

    const second = await startServerProcess(env);
    try {
      const list = await sendHttp(second.port, { path: '/api/v1/roadmap', from: '127.0.0.9' });
      const feature = (list.json() as { features: { id: number; voted: boolean; vote_count: number }[] }).features.find((f) => f.id === 3);
      assert.equal([feature?.voted, feature?.vote_count], [true, 1]);
      const again = await sendHttp(second.port, { path: statusPath, from: '127.0.0.9' });
      assert.is(again.status, 200);
      assert.equal(again.json(), paid.json());
    } finally {
      assert.is(await second.stop(), 0);
    }

    const client = await target.client();
    try {
      const entries: FeedbackEntry[] = [];
      for await (const entry of sqlExportSource(client).feedbackEntries()) entries.push(entry);
      assert.equal(entries.map(({ description, rating, type }) => ({ description, rating, type })), [
        { description: 'Keep me', rating: 4, type: 'general' },
      ]);
    } finally {
      await client.close();
    }
  });

  test.run();
}
