/**
 * The halt rule over real sockets (docs/operating.md "A ramp that stops itself"), injected clock: 2.5.0
 * everywhere from 12:00 UTC (2,000 clients checking naming it on its first day, 1 bug report); 2.6.0
 * published at midnight a day and a half later on a ramp starting at 50 %; 500 clients checking naming 2.6.0
 * and, 6 hours in, bug reports from 20 of them on 20 networks halt it, with the figures and a release.halted
 * event, at the report where the excess becomes significant (against 2.5.0's first 6 hours: half of its
 * 12-hour first day, 1,000 installs). What the public
 * cannot do (issue 42): one address, or ten of one /24, halts nothing with any number of reports; 120
 * forged checks add one install; after a resume, reports from before no longer count. The same reports
 * for 2.5.0 do not halt, nor reports for 2.6.0 from clients it was never offered to.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';

const test = suite('the halt rule');
const HOUR = 3600_000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const agent = (version: string) => `LegacySheetConverter/${version} (Windows NT 10.0)`;
/** 2,000 clients on 250 networks (/24s), 8 in each. */
const CLIENTS = Array.from({ length: 2000 }, (_, i) => `198.51.${i % 250}.${Math.floor(i / 250) + 1}`);
const networkOf = (ip: string) => ip.split('.').slice(0, 3).join('.');

let running: InProcessOperator;
test.before.each(async () => {
  running = await startInProcessOperator(
    { rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } },
    { trustedProxies: parseCidrList('127.0.0.1/32') },
  );
  await running.server.storage.change((tx) =>
    tx.outbox.addEndpoint({
      url: 'http://127.0.0.1:9/hook',
      secret: 'whsec_AAAA',
      events: [],
      format: 'standard',
      createdAt: running.server.clock.now(),
    })
  );
});
test.after.each(() => running.close());

const check = (client: string, version: string) =>
  running.server.request({ path: '/api/v1/version', headers: { 'x-forwarded-for': client, 'user-agent': agent(version) } });
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

/** Whether 2.6.0 at 50 % is offered to a client (bucket below 50), as the server works it out. */
async function offeredTest(): Promise<(ip: string) => boolean> {
  const bucketOf = referenceBucketOf(await running.server.storage.secret('voter-secret', () => 'unused'));
  return (ip) => bucketOf(clientKey(ip)) < 50;
}

/** The clients 2.6.0 at 50 % is offered to and the others; `reporters`: offered ones, each of another network. */
async function split(): Promise<{ offered: string[]; others: string[]; reporters: string[]; isOffered: (ip: string) => boolean }> {
  const isOffered = await offeredTest();
  const offered = CLIENTS.filter(isOffered);
  const networks = new Set<string>();
  const reporters = offered.filter((ip) => !networks.has(networkOf(ip)) && networks.add(networkOf(ip)));
  return { offered, others: CLIENTS.filter((ip) => !isOffered(ip)), reporters, isOffered };
}

/** Where the example starts, and when 2.6.0 is published: midnight UTC, a day and a half later. */
const START = Date.UTC(2026, 10, 21, 12);
const RAMP_AT = START + 36 * HOUR;
const RAMP = { steps: [50, 100], everyMinutes: 24 * 60 };

/**
 * 2.5.0 published at 12:00 UTC on 2,000 clients (1 bug report); 2.6.0 at midnight a day and a half later on a
 * ramp of 50 % then 100 % a day later, and 500 clients checking naming it; the clock then 6 hours into its ramp.
 */
async function theExample(ramp: Record<string, unknown> = RAMP): Promise<Awaited<ReturnType<typeof split>>> {
  running.server.clock.set(START);
  assert.is((await publish({ version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 })).status, 201);
  for (const client of CLIENTS) assert.is((await check(client, '2.5.0')).status, 200);
  assert.is((await bugReport(CLIENTS[0]!, '2.5.0')).status, 201);
  running.server.clock.set(RAMP_AT);
  const published = await publish({ version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 50, ramp });
  assert.is(published.status, 201, published.text);
  running.server.clock.advance(1000);
  const clients = await split();
  assert.ok(clients.offered.length > 500 && clients.reporters.length > 25);
  for (const client of clients.offered.slice(0, 500)) {
    const answer = await check(client, '2.6.0');
    assert.is((answer.json() as { version: string }).version, '2.6.0');
  }
  running.server.clock.set(RAMP_AT + 6 * HOUR);
  return clients;
}

const counted = async (kind: string, version: string) =>
  (await running.server.storage.usage.list(0, 1e6)).filter((c) => c.kind === kind && c.release === version).reduce((sum, c) => sum + c.count, 0);
const installs = (version: string) => counted('installed', version);
const deliveries = async () => ((await running.call('/webhooks/deliveries')).json() as { deliveries: { type: string }[] }).deliveries.map((d) => d.type);

const REASON = '2.6.0: 18 reporting clients from 18 networks, of 500 installs on its first day (36.0 per 1,000), against 2.5.0: 1 of 1,000 (1.0 per 1,000) ' +
  'at the same age; p = 0.00083 for more than 3× its rate. The rule halts with at least 10 reporting clients from 10 networks and p below 0.0010 (99.9% confidence).';

test('reports from 20 of its 500 clients on 20 networks halt 2.6.0 at 50 % at the 18th, with the figures, an event and an audit entry', async () => {
  const { reporters, others } = await theExample();
  for (let i = 0; i < 17; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null, '17 clients: p = 0.0013, not yet significant');
  for (let i = 17; i < 20; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  const halted = await release('2.6.0');
  assert.equal([halted['rolloutPercent'], halted['haltReason'], halted['haltedAt']], [50, REASON, new Date(running.server.clock.now()).toISOString()]);
  assert.ok((await deliveries()).includes('release.halted'));
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.find((e) => e.action === 'release.halted')?.target, REASON);
  // Held: a day later, when the plan's next step was due, the ramp is still at 50 %.
  running.server.clock.advance(25 * HOUR);
  assert.is(((await check(others[0]!, '2.5.0')).json() as { version: string }).version, '2.5.0');
  assert.equal([(await release('2.6.0'))['rolloutPercent'], (await release('2.6.0'))['servedPercent']], [50, 50]);
  // Resumed: the plan goes on from its step, its next step as much later as the halt lasted.
  const resumed = await running.call('/releases/2.6.0/resume', { method: 'POST' });
  assert.is(resumed.status, 200, resumed.text);
  const body = resumed.json() as { haltedAt: null; rolloutPercent: number; ramp: { step: number; nextStepAt: string } };
  assert.equal([body.haltedAt, body.rolloutPercent, body.ramp.step, body.ramp.nextStepAt], [
    null,
    50,
    1,
    new Date(running.server.clock.now() + 18 * HOUR).toISOString(),
  ]);
  assert.ok((await deliveries()).includes('release.resumed'));
  // A resume starts a new watch: the 20 reports before it count no more, and one more report (old client or new) halts nothing.
  assert.is((await bugReport(reporters[0]!, '2.6.0')).status, 201);
  assert.is((await bugReport(reporters[25]!, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null);
});

test('after a resume, the networks that reported before it count no more, for good: 18 new ones halt it again', async () => {
  const { offered, reporters } = await theExample();
  for (let i = 0; i < 20; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  assert.ok((await release('2.6.0'))['haltedAt'], 'halted by the first 20 networks');
  // Resumed at the next midnight; its clients check on the new day, and 6 hours later the reports come.
  running.server.clock.set(RAMP_AT + 24 * HOUR);
  assert.is((await running.call('/releases/2.6.0/resume', { method: 'POST' })).status, 200);
  for (const client of offered.slice(0, 500)) assert.is((await check(client, '2.6.0')).status, 200);
  running.server.clock.advance(6 * HOUR);
  // Every offered client of the first 20 networks reports: the same reporters and their neighbours.
  const used = new Set(reporters.slice(0, 20).map(networkOf));
  const again = offered.filter((ip) => used.has(networkOf(ip)));
  assert.ok(again.length > 40, `${again.length} clients of those networks`);
  for (const ip of again) assert.is((await bugReport(ip, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null, 'the networks that halted it before count no more');
  for (let i = 20; i < 37; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null, '17 new networks: not yet significant');
  assert.is((await bugReport(reporters[37]!, '2.6.0')).status, 201);
  const halted = await release('2.6.0');
  assert.ok(halted['haltedAt'], 'the 18th new network halts it again');
  assert.match(
    String(halted['haltReason']),
    /^2\.6\.0: 18 reporting clients from 18 networks, of 500 installs on its first day since it resumed .* against 2\.5\.0: 1 of 1,000 /,
  );
});

test('addresses of one party count once: 6to4 forms of one IPv4 /24, and /48s of one tunnel broker, halt nothing', async () => {
  const { isOffered } = await theExample();
  const hex = (n: number) => n.toString(16);
  // 203.0.113.1-254 as 6to4 (2002:cb00:71xx::/48), each on a /48 of its own: one /24.
  const sixToFour = Array.from({ length: 254 }, (_, i) => `2002:cb00:71${hex(i + 1).padStart(2, '0')}:1::1`).filter(isOffered).slice(0, 30);
  const broker = Array.from({ length: 200 }, (_, i) => `2001:470:${hex(0x1000 + i)}::2`).filter(isOffered).slice(0, 30);
  assert.equal([sixToFour.length, broker.length], [30, 30]);
  for (const ip of [...sixToFour, ...broker]) assert.is((await bugReport(ip, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null);
  await running.server.app.flush?.();
  assert.is(await counted('bug_report', '2.6.0'), 60, 'each address still counts once as a client');
});

test('one address halts nothing with any number of reports, nor ten addresses of one /24, nor 120 forged checks', async () => {
  const { reporters, isOffered } = await theExample();
  const one = reporters[0]!;
  for (let i = 0; i < 40; i++) assert.is((await bugReport(one, '2.6.0')).status, 201);
  const sameNetwork = Array.from({ length: 254 }, (_, i) => `203.0.113.${i + 1}`).filter(isOffered).slice(0, 30);
  assert.is(sameNetwork.length, 30);
  for (const ip of sameNetwork) for (let i = 0; i < 3; i++) assert.is((await bugReport(ip, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null);
  // 120 checks from one address naming 2.6.0 in a minute: one install of 2.6.0 for that client today.
  const before = await installs('2.6.0');
  for (let i = 0; i < 120; i++) assert.is((await check('192.0.2.77', '2.6.0')).status, 200);
  await running.server.app.flush?.();
  assert.is(await installs('2.6.0'), before + 1);
  // Counted once per client: 1 for the one address, 30 for the /24's addresses.
  assert.is(await counted('bug_report', '2.6.0'), 31);
  assert.not.ok((await deliveries()).includes('release.halted'));
});

test('a plan sets its own minimums: with 30 clients from 25 networks, 20 reporting clients do not halt it', async () => {
  const refused = await publish({
    version: '2.6.0',
    msiUrl: MSI('2.6.0'),
    rolloutPercent: 50,
    ramp: { steps: [50, 100], everyMinutes: 60, haltMinClients: 0 },
  });
  assert.is(refused.status, 400);
  assert.match((refused.json() as { message: string }).message, /ramp\.haltMinClients/);
  const { reporters } = await theExample({ steps: [50, 100], everyMinutes: 24 * 60, haltMinClients: 30, haltMinNetworks: 25 });
  const stored = (await running.server.storage.releases.listReleases()).find((r) => r.version === '2.6.0')!;
  assert.equal(stored.ramp?.halt, { minClients: 30, minNetworks: 25 });
  for (let i = 0; i < 20; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  assert.is((await release('2.6.0'))['haltedAt'], null);
  for (let i = 20; i < 30; i++) assert.is((await bugReport(reporters[i]!, '2.6.0')).status, 201);
  assert.match(
    String((await release('2.6.0'))['haltReason']),
    /^2\.6\.0: 30 reporting clients from 30 networks.*at least 30 reporting clients from 25 networks/,
  );
});

test('the same 20 bug reports for 2.5.0 do not halt 2.6.0', async () => {
  const { offered } = await theExample();
  for (let i = 0; i < 20; i++) assert.is((await bugReport(offered[i]!, '2.5.0')).status, 201);
  await running.server.app.flush?.();
  const reporting = new Set([CLIENTS[0]!, ...offered.slice(0, 20)]);
  assert.is(await counted('bug_report', '2.5.0'), reporting.size, 'each reporting client once');
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
  const stats = (await running.call('/stats?days=3')).json() as { versions: { bugReports: Record<string, number> } };
  // The numbers still show every report by the version it names (2.6.1 is no release: other).
  assert.equal(stats.versions.bugReports, { other: 20, '2.6.0': 20, '2.5.0': 1 });
  const counted = await running.server.storage.usage.list(0, 1e6);
  assert.equal(counted.filter((c) => c.kind === 'bug_report').map((c) => [c.release, c.count]), [['2.5.0', 1]]);
});

test.run();
