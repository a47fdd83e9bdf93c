/**
 * A server killed with SIGKILL in the middle of a burst of feedback and votes loses nothing it answered
 * 201 or 200 for, on PGlite and on Postgres, and its storage opens again. Feedback and toggles are
 * written in batches (group commit); these tests hold the batches to "answered means committed".
 */
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResult, sendRequest } from '../_client.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { type ServerProcess, startServerProcess } from '../_spawn.ts';

const test = suite('a server killed during a burst of writes');

/** Each request comes from its own loopback address, so the burst meets no rate limit. */
const client = (i: number) => `127.0.${1 + Math.floor(i / 200)}.${1 + (i % 200)}`;
const FEEDBACK = 120;
const VOTES = 120;

interface Answered {
  feedback: string[];
  voters: string[];
}

/** Sends the burst, kills the server once a sixth of it is answered, and says what was answered. */
async function burstThenKill(server: ServerProcess): Promise<Answered> {
  const answered: Answered = { feedback: [], voters: [] };
  let count = 0;
  let killed = false;
  const settle = (result: Promise<HttpResult>, onOk: (r: HttpResult) => void) =>
    result.then(
      (r) => {
        onOk(r);
        if (++count >= (FEEDBACK + VOTES) / 6 && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      },
      () => undefined,
    );
  const sends: Promise<void>[] = [];
  for (let i = 0; i < Math.max(FEEDBACK, VOTES); i++) {
    if (i < FEEDBACK) {
      const description = `crash note ${i}`;
      const sent = sendRequest(server.url, {
        method: 'POST',
        path: '/api/v1/feedback',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description }),
        from: client(i),
      });
      sends.push(settle(sent, (r) => r.status === 201 && answered.feedback.push(description)));
    }
    if (i < VOTES) {
      const voter = client(FEEDBACK + i);
      const sent = sendRequest(server.url, {
        method: 'POST',
        path: '/api/v1/roadmap',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ featureId: 1 }),
        from: voter,
      });
      sends.push(settle(sent, (r) => r.status === 200 && (r.json() as { voted: boolean }).voted && answered.voters.push(voter)));
    }
  }
  await Promise.all(sends);
  // Every request settled before a sixth was answered (they failed): kill it now, so that the assertion
  // below reports it instead of the test waiting for an exit that never comes.
  if (!killed) server.child.kill('SIGKILL');
  await server.exited;
  assert.ok(killed, `the server was killed during the burst (${count} of ${FEEDBACK + VOTES} answered)`);
  return answered;
}

/** After the restart, every voter whose toggle was answered sees its vote. */
async function assertVotesKept(server: ServerProcess, voters: string[]): Promise<void> {
  for (const voter of voters) {
    const roadmap = (await sendRequest(server.url, { path: '/api/v1/roadmap', from: voter })).json() as {
      features: { id: number; voted: boolean }[];
    };
    assert.ok(roadmap.features.find((f) => f.id === 1)?.voted, `vote of ${voter} kept`);
  }
}

/**
 * Starts the server, kills it during a burst, starts it again on the same storage and checks the votes
 * there; the caller checks the feedback in the database.
 */
async function crashAndRestart(env: Record<string, string>): Promise<Answered> {
  const answered = await burstThenKill(await startServerProcess(env));
  assert.ok(answered.feedback.length + answered.voters.length > 0, 'some writes were answered');
  const again = await startServerProcess(env);
  try {
    await assertVotesKept(again, answered.voters);
  } finally {
    again.child.kill('SIGTERM');
    assert.is(await again.exited, 0, again.stderr());
  }
  return answered;
}

/** The votes stored for feature 1 and the count kept beside them, in `schema`. */
const voteCounts = (schema: string) =>
  `select (select count(*)::int from "${schema}".roadmap_votes where feature_id = 1) as stored, (select vote_count from "${schema}".roadmap_features where id = 1) as counted`;

function assertFeedbackKept(stored: string[], answered: string[]): void {
  const kept = new Set(stored);
  assert.equal(answered.filter((d) => !kept.has(d)), [], 'answered feedback missing after the crash');
}

test('PGlite: nothing answered is lost, and the data directory opens again', async () => {
  // An empty DATA_DIR: the first start also initialises it (in a child process).
  const dataDir = mkdtempSync(join(tmpdir(), 'crash-pglite-'));
  const env = { STORAGE: 'pglite', DATA_DIR: dataDir };
  try {
    const answered = await crashAndRestart(env);
    const db = await PGlite.create(dataDir);
    try {
      const rows = await db.query<{ description: string }>('select description from feedback');
      assertFeedbackKept(rows.rows.map((r) => r.description), answered.feedback);
      const [counts] = (await db.query<{ stored: number; counted: number }>(voteCounts('public'))).rows;
      assert.is(counts!.stored, counts!.counted);
      assert.ok(counts!.counted >= answered.voters.length);
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('Postgres: nothing answered is lost', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const env = { STORAGE: 'postgres', DATABASE_URL: pg.url, DATABASE_SCHEMA: schema };
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  try {
    const answered = await crashAndRestart(env);
    const rows = await sql.unsafe<{ description: string }[]>(`select description from "${schema}".feedback`);
    assertFeedbackKept(rows.map((r) => r.description), answered.feedback);
    const [counts] = await sql.unsafe<{ stored: number; counted: number }[]>(voteCounts(schema));
    assert.is(counts!.stored, counts!.counted);
    assert.ok(counts!.counted >= answered.voters.length);
  } finally {
    await sql.end();
    await pg.dropSchema(schema);
  }
});

test.after(closeTestDatabases);
test.run();
