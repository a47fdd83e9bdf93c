/**
 * Promotion, publish and halt on two instances (issue 55, "Measured"): two apps on one PostgreSQL
 * (DATABASE_URL, else PGlite over the wire), one online key, one injected clock, the roots of stable and
 * beta published. A publish to beta through A, a promotion to stable through B, the halt rule's halt and a
 * pull through A, each followed by both refreshing at once: after each, one new timestamp version on each
 * channel the change alters (a beta publish: beta; the promotion: stable; the halt and the pull: both), the
 * same bytes from both instances for every file, one event of the change in the outbox, the same
 * /api/v1/version answers from both, and one purge per altered channel across both (made once more 2 s
 * later, by design: core/updates/cache-purges.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../../core/app.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { recordChange } from '../../core/ports/change.ts';
import type { CachePurge } from '../../core/ports/cache-purge.ts';
import { haltedEventData } from '../../core/releases/release-watch.ts';
import { buildRoot, createTufSigner, envelopeText, signEnvelope } from '../../core/tuf/index.ts';
import { PURGE_AGAIN_AFTER_MS } from '../../core/updates/cache-purges.ts';
import { channelTag } from '../../core/updates/cache-tags.ts';
import { closeTestDatabases } from '../_databases.ts';
import { operateOk } from '../_operator.ts';
import { type Instances, postgresInstances } from '../_ramp-instances.ts';
import { bodyText, coreRequest } from '../_setup.ts';

const DAY = 86_400_000;
const CHANNELS = ['stable', 'beta'] as const;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const NAMES = ['A', 'B'];

test.after(closeTestDatabases);

/** The tags each instance's purge port was asked to drop, as "A updates:beta", in order. */
const purged: string[] = [];
const recorder = (name: string): CachePurge => ({ name: 'recorder', purge: async (tags) => void purged.push(...tags.map((tag) => `${name} ${tag}`)) });

/** Each channel's newest stored timestamp version. */
async function timestampVersions(instances: Instances): Promise<Record<string, number | null>> {
  const newest = async (channel: string) => (await instances.storage.updateFiles.newestUpdateFile(channel, 'timestamp'))?.version ?? null;
  return Object.fromEntries(await Promise.all(CHANNELS.map(async (channel) => [channel, await newest(channel)])));
}

/** Every stored file of both channels as both instances serve it: under its versioned name, and the newest timestamp and root under theirs. */
async function assertSameBytes(instances: Instances): Promise<void> {
  for (const channel of CHANNELS) {
    const stored = await instances.storage.updateFiles.listUpdateFiles(channel);
    const newest = (role: string) => stored.filter((file) => file.role === role).sort((a, b) => b.version - a.version)[0]!;
    const paths = [
      ...stored.filter((file) => file.role !== 'timestamp').map((file) => [`/updates/${channel}/${file.version}.${file.role}.json`, file.text]),
      [`/updates/${channel}/timestamp.json`, newest('timestamp').text],
      [`/updates/${channel}/root.json`, newest('root').text],
    ];
    for (const [path, text] of paths) {
      for (const [i, app] of instances.apps.entries()) {
        const answer = await app.handle(coreRequest({ path: path! }));
        assert.equal([answer.status, bodyText(answer)], [200, text], `${NAMES[i]} serves ${path} as stored`);
      }
    }
  }
}

/** What /api/v1/version serves 40 clients, from each instance. */
async function versionsServed(app: App): Promise<string[]> {
  const served: string[] = [];
  for (let i = 0; i < 40; i++) {
    const answer = await app.handle(coreRequest({ path: '/api/v1/version', clientIp: `198.51.100.${i}` }));
    assert.is(answer.status, 200);
    served.push(bodyText(answer));
  }
  return served;
}

/** The outbox's events not claimed before (each call claims those it answers), oldest first, as "type version". */
async function events(instances: Instances): Promise<string[]> {
  const due = await instances.storage.outbox.claimDue(instances.clock.now() + DAY, 365 * DAY, 100);
  return due.map((delivery) => JSON.parse(delivery.body) as { type: string; data: { version: string } }).map((e) => `${e.type} ${e.data.version}`);
}

test('a beta publish, a promotion, a halt and a pull: one timestamp per altered channel, the same bytes and answers, one event, one purge', async () => {
  const online = await createTufSigner(await generateSigningKey());
  const rootKey = await createTufSigner(await generateSigningKey());
  const instances = await postgresInstances(
    'update-files-two-instances-0123456789',
    (index) => ({ updates: { signer: online, purge: recorder(NAMES[index]!) } }),
  );
  const { apps, clock, storage } = instances;
  const [a, b] = apps as [App, App];
  try {
    await storage.change((tx) =>
      tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: clock.now() })
    );
    for (const channel of CHANNELS) {
      const signed = await buildRoot({ version: 1, expires: clock.now() + 365 * DAY, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
      await operateOk(a, 'POST', `/update-roots/${channel}`, JSON.parse(envelopeText(await signEnvelope(signed, [rootKey]))));
    }
    const release = (version: string) => ({ version, msiUrl: MSI(version), sha256: version.replaceAll('.', '').padEnd(64, 'a'), size: 1000 });
    await operateOk(a, 'POST', '/releases', { ...release('2.7.0'), rolloutPercent: 100 });
    /** Both instances refresh at once, then their purges are done; answers the tags purged, as "A updates:beta". */
    const refreshBoth = async () => {
      purged.length = 0;
      await Promise.all(apps.map((app) => app.refreshReleases()));
      await Promise.all(apps.map((app) => app.purgesSettled()));
      return [...purged];
    };
    const tagsOf = (lines: string[]) => lines.map((line) => line.split(' ')[1]).sort();
    // The first files of both channels, and the purges made again 2 s later.
    await refreshBoth();
    clock.advance(PURGE_AGAIN_AFTER_MS);
    await refreshBoth();
    assert.equal(await timestampVersions(instances), { stable: 1, beta: 1 });
    const handed = await events(instances);
    assert.equal(handed, ['release.published 2.7.0']);

    /**
     * After a change: both instances refresh at once, and once more 2 s later (the purge made again); then
     * the checks. `altered`: the channels whose files the change alters; `served`: /api/v1/version's tally.
     */
    const afterChange = async (event: string, altered: readonly string[], timestamps: Record<string, number>, served: Record<string, number>) => {
      const first = await refreshBoth();
      assert.equal(tagsOf(first), altered.map(channelTag).sort(), `${event}: one purge per altered channel across both instances (${first.join(', ')})`);
      assert.equal(await timestampVersions(instances), timestamps, `${event}: one timestamp version per altered channel`);
      clock.advance(PURGE_AGAIN_AFTER_MS);
      assert.equal((await refreshBoth()).sort(), [...first].sort(), `${event}: the purge made once more, by the same instance`);
      assert.equal(await timestampVersions(instances), timestamps, `${event}: nothing more signed`);
      await assertSameBytes(instances);
      const fromA = await versionsServed(a);
      assert.equal(await versionsServed(b), fromA, `${event}: both serve the same /api/v1/version answers`);
      const tally: Record<string, number> = {};
      for (const version of fromA.map((body) => (JSON.parse(body) as { version: string }).version)) tally[version] = (tally[version] ?? 0) + 1;
      assert.equal(tally, served, `${event}: /api/v1/version`);
      assert.equal(await events(instances), [event], `${event}: one event of the change`);
    };

    const ramp = { steps: [10, 50, 100], everyMinutes: 24 * 60 };
    await operateOk(a, 'POST', '/releases', { ...release('2.8.0'), channel: 'beta', rolloutPercent: 10, ramp });
    await afterChange('release.published 2.8.0', ['beta'], { stable: 1, beta: 2 }, { '2.7.0': 40 });

    await operateOk(b, 'POST', '/releases/2.8.0/promote', { channel: 'stable' });
    await afterChange('release.promoted 2.8.0', ['stable'], { stable: 2, beta: 2 }, { '2.7.0': 35, '2.8.0': 5 });

    // The halt rule's change (core/releases/release-watch.ts): the halt, its event and audit row, in one unit.
    const at = clock.now();
    await storage.change(async (tx) => {
      const held = await tx.releases.haltRelease('2.8.0', at, 'bug reports');
      assert.ok(held);
      const audit = { at, action: 'release.halted', target: 'bug reports', requestId: 'halt', actor: null };
      await recordChange(tx, { at, event: { type: 'release.halted', data: haltedEventData(held!, at) }, audit });
    });
    await afterChange('release.halted 2.8.0', CHANNELS, { stable: 3, beta: 3 }, { '2.7.0': 35, '2.8.0': 5 });

    await operateOk(a, 'POST', '/releases/2.8.0/pull');
    await afterChange('release.pulled 2.8.0', CHANNELS, { stable: 4, beta: 4 }, { '2.7.0': 40 });
  } finally {
    await instances.close();
  }
});

test.run();
