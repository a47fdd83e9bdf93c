/**
 * The halt rule over real sockets (docs/operating.md "A ramp that stops itself"), injected clock: 2.5.0
 * everywhere (1,000 update checks naming it, 1 bug report); 2.6.0 published on a ramp starting at 50 %;
 * 500 update checks naming 2.6.0 and 20 bug reports for it halt it with the figures and a release.halted
 * event. The same reports for 2.5.0 do not, nor reports for 2.6.0 from clients it was never offered to.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { startOperatorServer, type OperatorServer } from '../_operator.ts';

const test = suite('the halt rule');
const HOUR = 3600_000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const agent = (version: string) => `LegacySheetConverter/${version} (Windows NT 10.0)`;
const CLIENTS = Array.from({ length: 1000 }, (_, i) => `198.51.${Math.floor(i / 250)}.${i % 250}`);

let running: OperatorServer;
test.before.each(async () => {
  running = await startOperatorServer(
    { rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } },
    { trustedProxies: parseCidrList('127.0.0.1/32') },
  );
  await running.server.storage.outbox.addEndpoint({ url: 'http://127.0.0.1:9/hook', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: running.server.clock.now() });
});
test.after.each(() => running.close());

const check = (client: string, version: string) => running.server.request({ path: '/api/v1/version', headers: { 'x-forwarded-for': client, 'user-agent': agent(version) } });
const bugReport = (client: string, appVersion: string) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'bug_report', description: 'It crashes on open', appVersion }),
  });
const publish = (json: Record<string, unknown>) => running.call('/releases', { method: 'POST', json });
const release = async (version: string) =>
  ((await running.call('/releases')).json() as { releases: Record<string, unknown>[] }).releases.find((r) => r['version'] === version)!;

/** The clients 2.6.0 at 50 % is offered to (bucket below 50) and the others, as the server works them out. */
async function split(): Promise<{ offered: string[]; others: string[] }> {
  const bucketOf = referenceBucketOf(await running.server.storage.secret('voter-secret', () => 'unused'));
  const offered = CLIENTS.filter((ip) => bucketOf(clientKey(ip)) < 50);
  return { offered, others: CLIENTS.filter((ip) => !offered.includes(ip)) };
}

/** 2.5.0 everywhere, then 2.6.0 on a ramp of 50 % then 100 % a day later, and 500 checks naming 2.6.0. */
async function theExample(): Promise<{ offered: string[]; others: string[] }> {
  assert.is((await publish({ version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 })).status, 201);
  for (const client of CLIENTS) assert.is((await check(client, '2.5.0')).status, 200);
  assert.is((await bugReport(CLIENTS[0]!, '2.5.0')).status, 201);
  running.server.clock.advance(HOUR);
  const published = await publish({ version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 50, ramp: { steps: [50, 100], everyMinutes: 24 * 60 } });
  assert.is(published.status, 201, published.text);
  running.server.clock.advance(1000);
  const clients = await split();
  for (let i = 0; i < 500; i++) {
    const answer = await check(clients.offered[i % clients.offered.length]!, '2.6.0');
    assert.is((answer.json() as { version: string }).version, '2.6.0');
  }
  return clients;
}

const deliveries = async () => ((await running.call('/webhooks/deliveries')).json() as { deliveries: { type: string }[] }).deliveries.map((d) => d.type);

test('20 bug reports for 2.6.0 from its 500 installs halt its ramp at 50 %, with the figures, an event and an audit entry', async () => {
  const { offered, others } = await theExample();
  for (let i = 0; i < 20; i++) assert.is((await bugReport(offered[i]!, '2.6.0')).status, 201);
  const halted = await release('2.6.0');
  const reason =
    '2.6.0: 10 bug reports from 500 installs on its first day (20.0 per 1,000), against 2.5.0: 1 from 1,000 (1.0 per 1,000) at the same age; ' +
    'the rule halts past 3× with at least 10 reports.';
  assert.equal([halted['rolloutPercent'], halted['haltReason'], halted['haltedAt']], [50, reason, new Date(running.server.clock.now()).toISOString()]);
  assert.ok((await deliveries()).includes('release.halted'));
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.find((e) => e.action === 'release.halted')?.target, reason);
  // Held: a day later, when the plan's next step was due, the ramp is still at 50 %.
  running.server.clock.advance(25 * HOUR);
  assert.is(((await check(others[0]!, '2.5.0')).json() as { version: string }).version, '2.5.0');
  assert.equal([(await release('2.6.0'))['rolloutPercent'], (await release('2.6.0'))['servedPercent']], [50, 50]);
  // Resumed: the plan goes on from its step, its next step as much later as the halt lasted.
  const resumed = await running.call('/releases/2.6.0/resume', { method: 'POST' });
  assert.is(resumed.status, 200, resumed.text);
  const body = resumed.json() as { haltedAt: null; rolloutPercent: number; ramp: { step: number; nextStepAt: string } };
  assert.equal([body.haltedAt, body.rolloutPercent, body.ramp.step, body.ramp.nextStepAt], [null, 50, 1, new Date(running.server.clock.now() + 24 * HOUR - 1000).toISOString()]);
  assert.ok((await deliveries()).includes('release.resumed'));
});

test('the same 20 bug reports for 2.5.0 do not halt 2.6.0', async () => {
  const { offered } = await theExample();
  for (let i = 0; i < 20; i++) assert.is((await bugReport(offered[i]!, '2.5.0')).status, 201);
  const listed = await release('2.6.0');
  assert.equal([listed['haltedAt'], listed['haltReason'], listed['rolloutPercent']], [null, null, 50]);
  assert.not.ok((await deliveries()).includes('release.halted'));
});

test('bug reports naming a version the client could not run count as nothing: 2.6.0 from clients never offered it, or an unknown version', async () => {
  const { others } = await theExample();
  for (let i = 0; i < 20; i++) assert.is((await bugReport(others[i]!, '2.6.0')).status, 201);
  for (let i = 0; i < 20; i++) assert.is((await bugReport(others[i]!, '2.6.1')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null);
  await running.server.app.flush?.();
  const stats = (await running.call('/stats?days=1')).json() as { versions: { bugReports: Record<string, number> } };
  // The numbers still show every report by the version it names (2.6.1 is no release: other).
  assert.equal(stats.versions.bugReports, { other: 20, '2.6.0': 20, '2.5.0': 1 });
  const counted = await running.server.storage.usage.list(0, 1e6);
  assert.equal(counted.filter((c) => c.kind === 'bug_report').map((c) => [c.release, c.count]), [['2.5.0', 1]]);
});

test.run();
