/**
 * The durable storages under every runtime's program (npm start, start:deno, start:bun): PGlite in a
 * DATA_DIR keeps a vote across a restart and admits one process at a time, and DATABASE_URL alone selects
 * Postgres (DATABASE_URL, else PGlite served over the wire protocol). The storage is opened in the shared
 * startup (server/standalone.ts), so each runtime must behave the same.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResult, sendRequest } from '../_client.ts';
import { closeTestDatabases, freshPgliteDir, testPostgres } from '../_databases.ts';
import { listeningLine, ROOT, runToExit, type Spawned, spawnServer } from '../_spawn.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const RUNTIMES = { node: 'start', deno: 'start:deno', bun: 'start:bun' } as const;
/** STORAGE and DATABASE_URL are set by each test, over whatever the test runner's environment holds. */
const BASE_ENV = { PORT: '0', HOST: '127.0.0.1', CONFIG_FILE: join(ROOT, 'example/config.json'), STORAGE: '', DATABASE_URL: '' };
const VOTER = '127.0.0.21';

const listening = listeningLine;

const vote = (server: Spawned): Promise<HttpResult> =>
  sendRequest(String(listening(server.stdout())!['url']), {
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: 1 }),
    from: VOTER,
  });

async function firstFeature(server: Spawned): Promise<unknown> {
  const roadmap = await sendRequest(String(listening(server.stdout())!['url']), { path: '/api/v1/roadmap', from: VOTER });
  const { features } = roadmap.json() as { features: { id: number; vote_count: number; voted: boolean }[] };
  const feature = features.find((f) => f.id === 1);
  return feature && { vote_count: feature.vote_count, voted: feature.voted };
}

for (const [runtime, script] of Object.entries(RUNTIMES)) {
  const command = scripts[script]!;
  const test = suite(`${runtime} program on durable storage (npm run ${script})`);
  const start = (env: Record<string, string>) => spawnServer(command, { ...BASE_ENV, ...env }, listening);

  test(`${runtime}: STORAGE=pglite keeps a vote across a restart and refuses a second process on its DATA_DIR`, async () => {
    const dataDir = await freshPgliteDir();
    const env = { STORAGE: 'pglite', DATA_DIR: dataDir };
    try {
      const first = await start(env);
      try {
        assert.equal([listening(first.stdout())!['storage'], listening(first.stdout())!['dataDir']], ['pglite', dataDir]);
        assert.equal((await vote(first)).json(), { voted: true, vote_count: 1 });
        const second = await runToExit(command, { ...BASE_ENV, ...env });
        assert.is(second.code, 78, second.stderr);
        assert.match(second.stderr, `configuration error: DATA_DIR ${dataDir} is in use by process `);
      } finally {
        assert.is(await first.stop(), 0, first.output());
      }
      const again = await start(env);
      try {
        assert.equal(await firstFeature(again), { vote_count: 1, voted: true });
      } finally {
        assert.is(await again.stop(), 0, again.output());
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test(`${runtime}: DATABASE_URL alone selects Postgres, and a vote is stored there`, async () => {
    const pg = await testPostgres();
    const schema = await pg.freshSchema();
    try {
      const server = await start({ DATABASE_URL: pg.url, DATABASE_SCHEMA: schema });
      try {
        const line = listening(server.stdout())!;
        assert.equal([line['storage'], line['schema']], ['postgres', schema]);
        assert.equal((await vote(server)).json(), { voted: true, vote_count: 1 });
        assert.equal(await firstFeature(server), { vote_count: 1, voted: true });
      } finally {
        assert.is(await server.stop(), 0, server.output());
      }
    } finally {
      await pg.dropSchema(schema);
    }
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
