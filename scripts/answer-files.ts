/**
 * Which source files one operator answer runs code in: `node --import tsx scripts/answer-files.ts`.
 * It publishes a release through the operator app in process, on PGlite (the SQL path), after a warm-up
 * publish, and reads V8's precise coverage of that one answer: a file counts when any of its functions
 * ran. The count behind the changelog's files a publish runs code in (CHANGELOG.md, issue 52's entry).
 *
 * @module
 */
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { createSqlStorage } from '../adapters/sql/storage.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { closeTestDatabases, pgliteSchema } from '../test/_databases.ts';
import { coreRequest, createTestApp } from '../test/_setup.ts';

const TOKEN = 'answer-files-0123456789'.padEnd(40, 't');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const release = (version: string) => ({ version, msiUrl: `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`, rolloutPercent: 10 });

const { client } = await pgliteSchema();
await migrate(client);
const { app } = await createTestApp({ operatorToken: TOKEN, storage: createSqlStorage(client) });
const publish = (version: string) =>
  app.operator!.handle(coreRequest({ method: 'POST', path: '/releases', headers: { authorization: `Bearer ${TOKEN}` }, json: release(version) }));

await publish('3.0.0');
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
await session.post('Profiler.takePreciseCoverage');
const answer = await publish('3.1.0');
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
if (answer.status !== 201) throw new Error(`the publish answered ${answer.status}`);

const files = result
  .filter((script) => script.url.startsWith('file://') && !script.url.includes('node_modules') && script.functions.some((f) => f.ranges[0]!.count > 0))
  .map((script) => relative(ROOT, fileURLToPath(script.url)))
  .filter((path) => /^(core|adapters|server|client)\//.test(path))
  .sort();
for (const file of files) console.log(file);
console.log(`${files.length} files`);
await closeTestDatabases();
