/**
 * The update window in the signed standing (issue 56), in process with an injected clock: a key sold with a
 * window answers `updatesUntil` (its issue day at 00:00 UTC plus the days its SKU sold) and `fallbackLine` (the
 * line of the newest live release published by then, null when none is); a lifetime key answers null for
 * both. The window is the one stored at the sale: a later change of the config changes only later sales; an
 * upgrade's Plus key has the add-on's window from its own issue day.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/licensing/license.ts';
import type { SaleWindows } from '../../core/licensing/sale-windows.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import type { TestAppOptions } from '../_setup.ts';
import { licenseRefusal } from '../_update-signature.ts';

interface Context {
  op: InProcessOperator;
  signingKey: string;
}
const test = suite<Context>('POST /api/v1/licenses/validate: the update window', {} as Context);

const WINDOWS: SaleWindows = { standard: { standard: 365 }, plus_addon: { plus: 180 }, plus_bundle: { standard: 365, plus: null } };
const at = (iso: string) => Date.parse(iso);

async function setUp(context: Context, options: TestAppOptions = {}) {
  context.signingKey ??= await generateSigningKey();
  context.op = await startInProcessOperator({ licenses: await createLicenseIssuer(context.signingKey), updateWindows: WINDOWS, ...options });
}
test.before.each(async (context) => {
  context.signingKey = await generateSigningKey();
  await setUp(context);
  context.op.server.clock.set(at('2026-06-01T09:00:00Z'));
  await publish(context, '2.5.0');
  context.op.server.clock.set(at('2026-11-01T09:00:00Z'));
  await publish(context, '2.6.0');
  context.op.server.clock.set(at('2026-11-21T12:00:00Z'));
});

async function publish({ op }: Context, version: string): Promise<void> {
  const published = await op.call('/releases', {
    method: 'POST',
    json: { version, msiUrl: `https://downloads.example.com/app-${version}.msi`, rolloutPercent: 100 },
  });
  assert.is(published.status, 201, published.text);
}

/** A session of `product` paid on the simulator's page; its keys as checkout/status gives them. */
async function buy({ op }: Context, product: string): Promise<{ id: string; standard: string | null; plus: string | null }> {
  const json = { 'content-type': 'application/json' };
  const created = await op.server.request({ method: 'POST', path: '/api/v1/checkout/create', headers: json, body: JSON.stringify({ product }) });
  const { sessionId } = created.json() as { sessionId: string };
  await op.server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` });
  const status = (await op.server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as Record<string, string | null>;
  return { id: sessionId, standard: status['standardLicenseKey'] ?? null, plus: status['plusLicenseKey'] ?? null };
}

/** The standing of a key, after the independent verifier accepted its signature. */
async function standing(context: Context, licenseKey: string | null): Promise<{ updatesUntil: string | null; fallbackLine: string | null }> {
  const { op } = context;
  const answer = await op.server.request({
    method: 'POST',
    path: '/api/v1/licenses/validate',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey, updateTerms: true }),
  });
  const signed = { status: answer.status, headers: answer.headers, body: answer.text };
  const refused = licenseRefusal(signed, await publicKeyOf(context.signingKey), Math.floor(op.server.clock.now() / 1000), licenseKey!);
  assert.is(refused, null);
  const { standing, updatesUntil, fallbackLine } = answer.json() as { standing: string; updatesUntil: string | null; fallbackLine: string | null };
  assert.is(standing, 'valid');
  return { updatesUntil, fallbackLine };
}

test('a key sold with 365 days covers up to its issue day plus 365; its fallback line follows the live releases published by then', async (context) => {
  const { standard } = await buy(context, 'standard');
  const answer = await context.op.server.request({
    method: 'POST',
    path: '/api/v1/licenses/validate',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey: standard, updateTerms: true }),
  });
  assert.is(
    answer.text,
    '{"standing":"valid","product":"standard","validUntil":"2026-12-05T12:00:00Z","updatesUntil":"2027-11-21T00:00:00Z","fallbackLine":"2.6"}',
  );
  const unasked = await context.op.server.request({
    method: 'POST',
    path: '/api/v1/licenses/validate',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey: standard }),
  });
  assert.is(unasked.text, '{"standing":"valid","product":"standard","validUntil":"2026-12-05T12:00:00Z"}', 'without updateTerms the answer is as before');
  context.op.server.clock.set(at('2027-10-01T09:00:00Z'));
  await publish(context, '2.7.0');
  assert.equal(await standing(context, standard), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.7' }, 'a release within the window');
  context.op.server.clock.set(at('2027-12-01T09:00:00Z'));
  await publish(context, '2.7.1');
  await publish(context, '2.8.0');
  assert.equal(await standing(context, standard), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.7' }, 'releases after the window change nothing');
  assert.is((await context.op.call('/releases/2.7.0/pull', { method: 'POST' })).status, 200);
  assert.equal(await standing(context, standard), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.6' }, 'a pulled release is not covered');
  context.op.server.clock.set(at('2031-01-01T00:00:00Z'));
  assert.equal(await standing(context, standard), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.6' }, 'the clock changes nothing');
});

test('with no live release within the window there is no fallback line (the baseline is no release of the channel)', async (context) => {
  await setUp(context, { updateWindows: { ...WINDOWS, standard: { standard: 1 } } });
  context.op.server.clock.set(at('2026-01-10T12:00:00Z'));
  const { standard } = await buy(context, 'standard');
  context.op.server.clock.set(at('2026-02-01T09:00:00Z'));
  await publish(context, '2.5.0');
  assert.equal(await standing(context, standard), { updatesUntil: '2026-01-11T00:00:00Z', fallbackLine: null });
});

test('the Plus bundle sells one window per product: its standard key 365 days, its plus key lifetime (both null)', async (context) => {
  const { standard, plus } = await buy(context, 'plus_bundle');
  assert.equal(await standing(context, standard), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.6' });
  assert.equal(await standing(context, plus), { updatesUntil: null, fallbackLine: null });
});

test('a later change of the windows changes only later sales: a key keeps the window it was sold with', async (context) => {
  const { standard: before } = await buy(context, 'standard');
  const storage = context.op.server.storage;
  await setUp(context, { storage, updateWindows: { ...WINDOWS, standard: { standard: 30 } } });
  context.op.server.clock.set(at('2026-12-24T18:00:00Z'));
  const { standard: after } = await buy(context, 'standard');
  assert.equal(await standing(context, before), { updatesUntil: '2027-11-21T00:00:00Z', fallbackLine: '2.6' });
  assert.equal(await standing(context, after), { updatesUntil: '2027-01-23T00:00:00Z', fallbackLine: '2.6' });
});

test("an upgrade's Plus key is sold with the add-on's window, from its own issue day", async (context) => {
  const { id } = await buy(context, 'standard');
  context.op.server.clock.set(at('2027-01-05T23:30:00Z'));
  const upgraded = await context.op.call(`/orders/${id}/upgrade`, { method: 'POST' });
  const plus = (upgraded.json() as { keys: { product: string; key: string }[] }).keys.find((k) => k.product === 'plus')!.key;
  assert.equal(await standing(context, plus), { updatesUntil: '2027-07-04T00:00:00Z', fallbackLine: '2.6' });
});

test.run();
