/**
 * LICENSE_KEY_FORMAT, as a real process: v1 keeps issuing the keys installed desktop apps verify today
 * (`key/...`; `sim/...` from the simulator), v2 is the default, anything else stops the start.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { sendRequest } from '../_client.ts';
import { runProgramToExit, startServerProcess } from '../_spawn.ts';

// The public test signing key of docs/licensing.md.
const SIGNING_KEY = 'MC4CAQAwBQYDK2VwBCIEIECLN1QyWvcZMjVNRPUSldfFNhHLo/FpW/3GZWWg5A+Y';

test('LICENSE_KEY_FORMAT=v3 stops the start with exit 78 naming the variable', async () => {
  const { code, stderr } = await runProgramToExit({ LICENSE_KEY_FORMAT: 'v3' });
  assert.is(code, 78);
  assert.is(stderr, 'configuration error: LICENSE_KEY_FORMAT must be v2 or v1, not "v3"');
});

test('LICENSE_KEY_FORMAT=v1: a standard license "paid" in the simulator is a version-1 sim/ key that verifies only as a simulator key; the start says so', async () => {
  const server = await startServerProcess({ LICENSE_KEY_FORMAT: 'v1', LICENSE_SIGNING_KEY: SIGNING_KEY });
  let key: string;
  try {
    const created = await sendRequest(server.url, { method: 'POST', path: '/api/v1/checkout/create' });
    const { sessionId } = created.json() as { sessionId: string };
    assert.is((await sendRequest(server.url, { method: 'POST', path: `/checkout/simulator/${sessionId}/pay` })).status, 303);
    const status = (await sendRequest(server.url, { path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as Record<string, string>;
    key = status['licenseKey']!;
  } finally {
    assert.is(await server.stop(), 0);
  }
  // Read once the process closed: the warning goes to stderr, which may trail the 'listening' line on stdout.
  assert.ok(server.lines.some((line) => line.includes('license keys are issued in format version 1 (LICENSE_KEY_FORMAT=v1)')));
  assert.match(key, /^sim\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
  const publicKey = await publicKeyOf(SIGNING_KEY);
  assert.is(await verifyLicenseKey(key, publicKey), null, 'never a license');
  const payload = await verifyLicenseKey(key, publicKey, 'sim/');
  assert.equal(payload && { v: payload.v, product: payload.product, sku: (payload as { sku: string }).sku }, { v: 1, product: 'standard', sku: 'standard' });
});

test.run();
