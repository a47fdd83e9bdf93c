/**
 * `converter-site-api license updates <key or email>` as an operator types it, in process (test/_cli.ts), the
 * operator API answered by an app in process with an injected clock: one line per stored release (version,
 * verdict, reason) on stdout, what they are judged by on stderr; a key typed in several words; an email's
 * keys as one installation; --json; a license that does not exist, a missing argument and no OPERATOR_URL.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../_cli.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { handleHttp } from '../_in-process.ts';
import { createTestApp, type TestApp } from '../_setup.ts';

const OPERATOR_URL = 'http://operator.test';
const at = (iso: string) => Date.parse(iso);

interface Context {
  t: TestApp;
}
const test = suite<Context>('license updates command', {} as Context);

test.before.each(async (context) => {
  context.t = await createTestApp({
    operatorToken: OPERATOR_TOKEN,
    updateWindows: { standard: { standard: 365 }, plus_addon: { plus: 365 }, plus_bundle: { standard: 365, plus: 365 } },
  });
});

const license = ({ t }: Context, args: string[], env: Record<string, string> = { OPERATOR_URL, OPERATOR_TOKEN }) =>
  runCommand(['license', 'updates', ...args], env, { [OPERATOR_URL]: t.app.operator! });

async function publishAt({ t }: Context, version: string, iso: string): Promise<void> {
  t.clock.set(at(iso));
  const json = { version, msiUrl: `https://downloads.example.com/app-${version}.msi`, rolloutPercent: 100 };
  const answer = await handleHttp(t.app.operator!.handle, {
    method: 'POST',
    path: '/releases',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  assert.is(answer.status, 201, answer.text);
}

/** A standard order paid at `iso` by ada@example.com; its key. */
async function buyAt({ t }: Context, iso: string): Promise<string> {
  t.clock.set(at(iso));
  const handle = (init: Parameters<typeof handleHttp>[1]) => handleHttp(t.app.handle, init);
  const created = await handle({ method: 'POST', path: '/api/v1/checkout/create', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { sessionId } = created.json() as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await handle({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: 'email=ada%40example.com' });
  return ((await handle({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string }).standardLicenseKey;
}

async function releases(context: Context): Promise<void> {
  await publishAt(context, '2.6.0', '2026-11-01T09:00:00Z');
}

test('a key: one line per stored release, highest first, with its verdict and reason; the window on stderr', async (context) => {
  await releases(context);
  const key = await buyAt(context, '2026-11-21T12:00:00Z');
  await publishAt(context, '2.6.1', '2027-12-01T09:00:00Z');
  await publishAt(context, '2.7.0', '2028-01-15T09:00:00Z');
  // As a buyer reads it out: lower case, in groups of 10 (several words).
  const typed = key.replaceAll('-', '').toLowerCase().match(/.{1,10}/g)!;
  const run = await license(context, typed);
  assert.is(run.code, 0, run.stderr);
  assert.is(
    run.stdout,
    [
      'VERSION  VERDICT           REASON',
      '2.7.0    paid upgrade      published 2028-01-15, after the window (until 2027-11-21), not of the fallback line 2.6: a paid upgrade',
      '2.6.1    fallback bug fix  published 2027-12-01, after the window (until 2027-11-21), a bug fix of 2.6, the line of 2.6.0, the newest release covered',
      '2.6.0    covered           published 2026-11-01, within the window (updates until 2027-11-21)',
      '',
    ].join('\n'),
  );
  assert.match(
    run.stderr,
    /^standard key of cs_sim_[\w-]+ \(valid\): 365 days from 2026-11-21\nupdates until 2027-11-21, then bug fixes of 2\.6; the baseline 2\.4\.1 is covered by every license\n$/,
  );
});

test("an email: the buyer's keys as one installation, the latest window; --json prints the API's answer", async (context) => {
  await releases(context);
  await buyAt(context, '2026-11-21T12:00:00Z');
  await buyAt(context, '2027-06-01T12:00:00Z');
  await publishAt(context, '2.7.0', '2028-01-15T09:00:00Z');
  const run = await license(context, ['Ada@Example.com']);
  assert.is(run.code, 0, run.stderr);
  assert.equal(run.stdout.split('\n').slice(1, -1).map((line) => line.split(/ {2,}/).slice(0, 2)), [['2.7.0', 'covered'], ['2.6.0', 'covered']]);
  assert.match(run.stderr, 'updates until 2028-05-31, then bug fixes of 2.7');
  const json = await license(context, ['ada@example.com', '--json']);
  assert.is(json.code, 0);
  const answer = JSON.parse(json.stdout) as { updatesUntil: string; keys: unknown[] };
  assert.equal([answer.updatesUntil, answer.keys.length], ['2028-05-31T00:00:00.000Z', 2]);
  assert.is(json.stderr, '');
});

test('no such license exits 1 with the API refusal; no argument is a usage error (64); no OPERATOR_URL a configuration error (78)', async (context) => {
  const missing = await license(context, ['nobody@example.com']);
  assert.equal([missing.code, missing.stdout], [1, '']);
  assert.is(
    missing.stderr,
    'converter-site-api license updates: No license key is held by a paid order of "nobody@example.com". (license_not_found; 404)\n' +
      "Find the order with GET /orders?email=<the buyer's email>; a key is matched as issued (any case for version 2, spaces and line breaks ignored).\n",
  );
  const none = await license(context, []);
  assert.is(none.code, 64);
  assert.match(none.stderr, "license updates needs a license key or a buyer's email");
  const unset = await license(context, ['ada@example.com'], { OPERATOR_TOKEN });
  assert.is(unset.code, 78);
  assert.match(unset.stderr, 'OPERATOR_URL is not set');
  const help = await runCommand(['license', '--help'], {});
  assert.match(help.stdout, 'updates <key or email> [--channel <name>] [--json]');
  const nightly = await license(context, ['ada@example.com', '--channel', 'nightly']);
  assert.equal([nightly.code, nightly.stderr.split('\n')[0]], [
    1,
    'converter-site-api license updates: No update channel is named "nightly"; the channels are stable, beta. (channel_not_found; 404)',
  ]);
});

test.run();
