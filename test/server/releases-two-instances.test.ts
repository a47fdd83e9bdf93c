/**
 * Two instances on one PostgreSQL (DATABASE_URL, else PGlite over the wire): a release published and
 * pulled through one instance's operator API is served by the other within a second of its clock, and
 * no answer of either pairs one release's version with another's MSI; a roadmap change is served by the
 * other at once. Both apps answer in process (app.handle); clocks are injected; no sleeps.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { closeTestDatabases, NO_RATE_LIMIT_DEADLINE, testPostgres } from '../_databases.ts';
import { handleHttp, startInProcessServer } from '../_in-process.ts';

const TOKEN = 'two-instances-operator-token-000000';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const PAIRS = new Map([
  ['2.5.0', MSI('2.5.0')],
  ['2.6.0', MSI('2.6.0')],
]);

test.after(() => closeTestDatabases());

test('PostgreSQL: a change made through instance A is served by instance B within a second; every answer is one release', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const open = async () => {
    const client = createPostgresClient({ url: pg.url, schema });
    await migrate(client);
    return client;
  };
  const [clientA, clientB] = [await open(), await open()];
  const trusted = { trustedProxies: parseCidrList('127.0.0.1/32') };
  const a = await startInProcessServer({ storage: createSqlStorage(clientA, { rateLimit: NO_RATE_LIMIT_DEADLINE }), operatorToken: TOKEN }, trusted);
  const b = await startInProcessServer({ storage: createSqlStorage(clientB, { rateLimit: NO_RATE_LIMIT_DEADLINE }) }, trusted);
  const change = (path: string, json?: unknown, method = 'POST') =>
    handleHttp(a.app.operator!.handle, {
      method,
      path,
      headers: { authorization: `Bearer ${TOKEN}`, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(json ? { body: JSON.stringify(json) } : {}),
    });
  /** GET /version of B for 50 clients: the versions served, each checked against its MSI. */
  const versionsOfB = async (): Promise<Set<string>> => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const answer = (await b.request({ path: '/api/v1/version', headers: { 'x-forwarded-for': `198.51.100.${i}` } })).json() as {
        version: string;
        downloadUrl: string;
      };
      if (answer.version !== '2.4.1') assert.is(answer.downloadUrl, PAIRS.get(answer.version), `${answer.version} with its own MSI`);
      seen.add(answer.version);
    }
    return seen;
  };
  try {
    assert.equal(await versionsOfB(), new Set(['2.4.1']));
    assert.is((await change('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 })).status, 201);
    b.clock.advance(1000);
    assert.equal(await versionsOfB(), new Set(['2.5.0']), 'B serves the release a second later');
    assert.is((await change('/releases', { version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 50 })).status, 201);
    b.clock.advance(1000);
    assert.equal(await versionsOfB(), new Set(['2.5.0', '2.6.0']), 'half of the clients, staged');
    assert.is((await change('/releases/2.6.0/pull')).status, 200);
    b.clock.advance(1000);
    assert.equal(await versionsOfB(), new Set(['2.5.0']), 'the pull too');

    // Roadmap changes: B reads them from the database on its next request, with no clock advance.
    const roadmapOfB = async () =>
      ((await b.request({ path: '/api/v1/roadmap' })).json() as { features: { id: number; title: string }[] }).features.map((f) => `${f.id} ${f.title}`);
    const before = await roadmapOfB();
    const created = await change('/roadmap', { title: 'Seen by B', category: 'app' });
    assert.is(created.status, 201);
    const { id } = created.json() as { id: number };
    assert.equal(await roadmapOfB(), [...before, `${id} Seen by B`]);
    assert.is((await change(`/roadmap/${id}`, { visible: false }, 'PATCH')).status, 200);
    assert.equal(await roadmapOfB(), before);
  } finally {
    await a.close();
    await b.close();
    await clientA.close();
    await clientB.close();
    await pg.dropSchema(schema);
  }
});

test.run();
