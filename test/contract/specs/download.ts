/** GET /api/v1/download: the installer redirect. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { refusal } from '../../_update-signature.ts';
import { expectError } from './_expect.ts';

const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15';

export const downloadSpec: Spec = (it) => {
  it('a Windows client is sent to the MSI with 302, no-store and Vary', async (server) => {
    const response = await server.request({
      path: '/api/v1/download?source=pricing-page',
      headers: { 'user-agent': WINDOWS },
      from: server.newClient(),
    });
    assert.is(response.status, 302);
    assert.is(response.headers['location'], server.served.download.msiUrl);
    assert.is(response.headers['cache-control'], 'no-store');
    assert.ok(response.headers['vary']?.startsWith('User-Agent, Sec-CH-UA-Platform'), response.headers['vary']);
    assert.is(response.text, '');
    // An empty body is framed by its length, never as an empty chunked body.
    assert.is(response.headers['content-length'], '0');
    assert.is(response.headers['transfer-encoding'], undefined);
  }, { smoke: true });

  it('the redirect to the MSI names its version in a signed Release-Version: it verifies for an app offered that version, not another', async (server) => {
    const response = await server.request({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS }, from: server.newClient() });
    assert.is(response.headers['release-version'], server.served.version);
    const headers = Object.fromEntries(Object.entries(response.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const keyid = /;keyid="([A-Za-z0-9_-]+)"/.exec(headers['signature-input'] ?? '')?.[1] ?? 'none';
    // Checked at its own `created` (targets run on other clocks).
    const created = Number(/;created=(\d+)/.exec(headers['signature-input'] ?? '')?.[1]);
    const answer = { status: response.status, headers, body: '' };
    assert.is(refusal(answer, keyid, created, { tag: 'update', version: server.served.version }), null);
    assert.is(refusal(answer, keyid, created, { tag: 'update', version: `${server.served.version}.1` }), 'another version');
  });

  it('a macOS client is sent to the warning page', async (server) => {
    const response = await server.request({ path: '/api/v1/download', headers: { 'user-agent': MAC }, from: server.newClient() });
    assert.is(response.status, 302);
    assert.is(response.headers['location'], server.served.download.nonWindowsUrl ?? `${server.publicBaseUrl}/windows-only`);
  });

  it('without a nonWindowsUrl the warning page is the shipped one, keeping the source label', async (server) => {
    const from = server.newClient();
    const redirect = await server.request({ path: '/api/v1/download?source=blog', headers: { 'user-agent': MAC }, from });
    assert.is(redirect.headers['location'], `${server.publicBaseUrl}/windows-only?source=blog`);
    const page = await server.request({ path: '/windows-only?source=blog', headers: { 'user-agent': MAC }, from });
    assert.is(page.status, 200);
    assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.is(page.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'");
    assert.is(page.headers['referrer-policy'], 'no-referrer');
    assert.match(page.text, '<h1>Legacy Sheet Converter runs on Windows</h1>');
    assert.match(page.text, '<a id="download-anyway" href="/api/v1/download?force=1&#38;source=blog">Download anyway</a>');
    const anyway = await server.request({ path: '/api/v1/download?force=1&source=blog', headers: { 'user-agent': MAC }, from });
    assert.is(anyway.headers['location'], server.served.download.msiUrl);
  });

  it('force=2 is 400 invalid_parameter', async (server) => {
    const response = await server.request({ path: '/api/download?force=2', from: server.newClient() });
    expectError(response, 400, 'invalid_parameter', 'Query parameter "force" must be "1" when given.');
  });
};
