import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Storage } from '../../core/ports/ports.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const MSI = 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi';
// The example configures no page of its own: the shipped one, at the app's public address.
const WARNING = 'http://localhost:8080/windows-only';
const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36';
const MAC_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15';

const download = suite('download');

async function get(query: string, headers: Record<string, string>, app?: Awaited<ReturnType<typeof createTestApp>>) {
  const t = app ?? (await createTestApp());
  const response = await t.app.handle(coreRequest({ path: '/api/v1/download', query, headers }));
  return { ...t, response };
}

download('a Windows browser is redirected to the MSI with no-store and Vary', async () => {
  const { response } = await get('', { 'user-agent': WINDOWS_UA });
  assert.is(response.status, 302);
  assert.is(response.body, null);
  assert.is(response.headers['location'], MSI);
  assert.is(response.headers['cache-control'], 'no-store');
  assert.is(response.headers['vary'], 'User-Agent, Sec-CH-UA-Platform');
});

download('a Mac browser is redirected to the Windows-only warning page', async () => {
  const { response } = await get('', { 'user-agent': MAC_UA });
  assert.is(response.status, 302);
  assert.is(response.headers['location'], WARNING);
});

download('a client without a User-Agent is not taken for Windows', async () => {
  const { response } = await get('', {});
  assert.is(response.headers['location'], WARNING);
});

download('force=1 skips the warning for a client that is not Windows', async () => {
  const { response } = await get('force=1', { 'user-agent': MAC_UA });
  assert.is(response.headers['location'], MSI);
});

download('the Sec-CH-UA-Platform hint wins over the User-Agent', async () => {
  const windowsHint = await get('', { 'user-agent': MAC_UA, 'sec-ch-ua-platform': '"Windows"' });
  assert.is(windowsHint.response.headers['location'], MSI);
  const macHint = await get('', { 'user-agent': WINDOWS_UA, 'sec-ch-ua-platform': '"macOS"' });
  assert.is(macHint.response.headers['location'], WARNING);
});

download('a Windows Phone User-Agent is not a Windows desktop', async () => {
  const { response } = await get('', { 'user-agent': 'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1)' });
  assert.is(response.headers['location'], WARNING);
});

download('each download is recorded with time, source, platform and force', async () => {
  const t = await createTestApp();
  await get('source=pricing-page', { 'user-agent': WINDOWS_UA }, t);
  await get('force=1&source=blog_2024.v2', { 'user-agent': MAC_UA }, t);
  await get('source=', { 'user-agent': MAC_UA }, t);
  const at = t.clock.now();
  assert.equal(t.storage.downloads, [
    { at, source: 'pricing-page', platform: 'windows', forced: false },
    { at, source: 'blog_2024.v2', platform: 'other', forced: true },
    { at, source: null, platform: 'other', forced: false },
  ]);
});

for (
  const [query, message] of [
    ['force=0', 'Query parameter "force" must be "1" when given.'],
    ['force=true', 'Query parameter "force" must be "1" when given.'],
    ['force=', 'Query parameter "force" must be "1" when given.'],
    ['force=1&force=1', 'Query parameter "force" is given more than once.'],
    [`source=${'a'.repeat(65)}`, 'Query parameter "source" must be at most 64 characters of A-Z, a-z, 0-9, ".", "_" or "-".'],
    ['source=has%20space', 'Query parameter "source" must be at most 64 characters of A-Z, a-z, 0-9, ".", "_" or "-".'],
    ['source=%3Cscript%3E', 'Query parameter "source" must be at most 64 characters of A-Z, a-z, 0-9, ".", "_" or "-".'],
    ['source=a&source=b', 'Query parameter "source" is given more than once.'],
  ] as const
) {
  download(`?${query.slice(0, 40)} is 400 invalid_parameter and records nothing`, async () => {
    const t = await createTestApp();
    const { response } = await get(query, { 'user-agent': WINDOWS_UA }, t);
    assert.is(response.status, 400);
    assert.is(response.headers['location'], undefined);
    assert.equal(bodyJson(response), {
      code: 'invalid_parameter',
      message,
      resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
    });
    assert.is(t.storage.downloads.length, 0);
  });
}

download('a source of exactly 64 allowed characters is accepted', async () => {
  const { response } = await get(`source=${'A9._-'.repeat(12)}abcd`, { 'user-agent': WINDOWS_UA });
  assert.is(response.status, 302);
});

download('the Location never comes from the query (no open redirect): only the validated source label is carried', async () => {
  const { response } = await get('source=x&redirect=https://evil.example&location=https://evil.example', {
    'user-agent': MAC_UA,
  });
  assert.is(response.headers['location'], `${WARNING}?source=x`);
});

download('a storage fault while recording is logged and the installer is still served', async () => {
  const t = await createTestApp();
  const failing: Storage = { ...t.storage, intake: { ...t.storage.intake, recordDownload: async () => Promise.reject(new Error('disk full')) } };
  const broken = await createTestApp({ storage: failing });
  const response = await broken.app.handle(
    coreRequest({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS_UA, 'x-request-id': 'dl-1' } }),
  );
  assert.is(response.status, 302);
  assert.is(response.headers['location'], MSI);
  assert.equal(broken.logger.lines, [
    { level: 'error', message: 'could not record a download', fields: { requestId: 'dl-1', error: 'Error: disk full' } },
  ]);
});

download.run();
