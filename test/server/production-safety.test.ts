/**
 * Production safety, as a real process: NODE_ENV=production (what the Dockerfile and the systemd unit
 * set) does not start without an explicit PAYMENT_GATEWAY, and a key "bought" in the simulator never
 * verifies as a license, even when the server signs with the production LICENSE_SIGNING_KEY.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromCrockfordBase32, toCrockfordBase32 } from '../../core/licensing/crockford-base32.ts';
import { publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { runLicenseCommand } from '../../server/cli/license-command.ts';
import { sendRequest } from '../_client.ts';
import { runProgramToExit as runToExit, startServerProcess } from '../_spawn.ts';

// The public test signing key of docs/licensing.md: a stand-in for an operator's real one.
const SIGNING_KEY = 'MC4CAQAwBQYDK2VwBCIEIECLN1QyWvcZMjVNRPUSldfFNhHLo/FpW/3GZWWg5A+Y';

test('NODE_ENV=production without PAYMENT_GATEWAY stops the start with exit 78 naming the variable', async () => {
  const { code, stderr } = await runToExit({ NODE_ENV: 'production', LICENSE_SIGNING_KEY: SIGNING_KEY });
  assert.is(code, 78, stderr);
  assert.is(
    stderr,
    'configuration error: NODE_ENV=production needs PAYMENT_GATEWAY set: stripe to take payments, or simulator for a demo that takes no money',
  );
});

test('NODE_ENV=production with PAYMENT_GATEWAY=simulator starts: the simulator runs only when asked for', async () => {
  const server = await startServerProcess({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'simulator', LICENSE_SIGNING_KEY: SIGNING_KEY });
  try {
    const pricing = await sendRequest(server.url, { path: '/api/v1/pricing' });
    assert.is(pricing.status, 200);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

test('a plus_bundle "paid" in the simulator gets simulator keys (S...) that `license verify` calls INVALID with the production key', async () => {
  const server = await startServerProcess({ PAYMENT_GATEWAY: 'simulator', LICENSE_SIGNING_KEY: SIGNING_KEY });
  let keys: Record<string, string | null>;
  try {
    const created = await sendRequest(server.url, {
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: '{"product":"plus_bundle"}',
    });
    const { sessionId } = created.json() as { sessionId: string };
    const paid = await sendRequest(server.url, { method: 'POST', path: `/checkout/simulator/${sessionId}/pay` });
    assert.is(paid.status, 303);
    const status = await sendRequest(server.url, { path: `/api/v1/checkout/status?session_id=${sessionId}` });
    keys = status.json() as Record<string, string | null>;
    assert.is(keys['status'], 'paid');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  const publicKey = await publicKeyOf(SIGNING_KEY);
  for (const key of [keys['standardLicenseKey']!, keys['plusLicenseKey']!]) {
    assert.match(key, /^S[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{5}){23}$/);
    assert.is(await verifyLicenseKey(key, publicKey), null);
    // Relabelled as a license (tag byte 0x10), the signature no longer holds.
    const bytes = fromCrockfordBase32(key)!;
    bytes[0] = 0x10;
    assert.is(await verifyLicenseKey(toCrockfordBase32(bytes), publicKey), null);
    assert.equal(await runLicenseCommand(['verify', key], { LICENSE_SIGNING_KEY: SIGNING_KEY }, process.cwd()), {
      code: 1,
      stdout: '',
      stderr: 'INVALID: this key comes from the payment simulator: no money was taken, and no app accepts it as a license.\n',
    });
  }
});

test.run();
