import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const MSI = 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi';

test('GET /api/v1/version answers the current version and the canonical MSI URL', async () => {
  const { app } = await createTestApp();
  const response = await app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.is(response.status, 200);
  assert.is(response.headers['content-type'], 'application/json');
  assert.equal(bodyJson(response), { version: '2.4.1', downloadUrl: MSI });
});

test('a new version from the version source is served without a restart', async () => {
  const { app, version } = await createTestApp();
  await app.handle(coreRequest({ path: '/api/v1/version' }));
  version.set('2.5.0-beta.1');
  const response = await app.handle(coreRequest({ path: '/api/version' }));
  assert.equal(bodyJson(response), { version: '2.5.0-beta.1', downloadUrl: MSI });
});

test('a version source that answers asynchronously is awaited', async () => {
  const { app } = await createTestApp({ version: { current: async () => '3.0.0' } });
  const response = await app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.equal(bodyJson(response), { version: '3.0.0', downloadUrl: MSI });
});

test('a version source that gives something other than a version is a logged 500', async () => {
  const { app, logger } = await createTestApp({ version: { current: () => 'latest' } });
  const response = await app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.is(response.status, 500);
  assert.is((bodyJson(response) as { code: string }).code, 'internal_error');
  assert.match(String(logger.lines[0]!.fields?.['error']), 'the version source gave "latest", not a version');
});

test.run();
