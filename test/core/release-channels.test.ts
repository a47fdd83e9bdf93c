/**
 * Release channels in process (docs/releases.md "Channels"): a release is published to a channel and
 * promoted towards stable; `/api/v1/version` serves stable only; versions rise per channel (a stable hotfix
 * below a beta is published, a beta below a stable is refused); each channel's update files list its own
 * releases and the more stable ones', and a configured channel with no release serves valid empty files.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { buildRoot, createTufSigner, envelopeText, expiresMs, signEnvelope, verifyEnvelope } from '../../core/tuf/index.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const TOKEN = 'release-channels-0123456789-'.padEnd(40, 't');
const DAY = 86_400_000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

async function send(t: TestApp, method: string, path: string, json?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await t.app.operator!.handle(
    coreRequest({ method, path, headers: { authorization: `Bearer ${TOKEN}` }, ...(json === undefined ? {} : { json }) }),
  );
  return { status: response.status, body: bodyJson(response) as Record<string, unknown> };
}

const publish = (t: TestApp, version: string, fields: Record<string, unknown>) => send(t, 'POST', '/releases', { version, msiUrl: MSI(version), ...fields });

/** What `/api/v1/version` serves 100 client addresses, counted by version. */
async function versionsServed(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (let i = 0; i < 100; i++) {
    const { version } = bodyJson(await t.app.handle(coreRequest({ path: '/api/v1/version', clientIp: `198.51.100.${i}` }))) as { version: string };
    counts[version] = (counts[version] ?? 0) + 1;
  }
  return counts;
}

test('publish to beta, a stable hotfix below it, the refusals, a promotion to stable at 10 %: /version serves stable only', async () => {
  const t = await createTestApp({ operatorToken: TOKEN });
  assert.equal((await send(t, 'GET', '/releases')).body['channels'], ['stable', 'beta']);
  assert.is((await publish(t, '2.7.0', { rolloutPercent: 100 })).status, 201);
  const beta = await publish(t, '2.8.0', { channel: 'beta', rolloutPercent: 100 });
  assert.is(beta.status, 201);
  assert.equal([beta.body['channel'], beta.body['servedPercent']], ['beta', 100]);
  const publishedAt = beta.body['publishedAt'];
  await t.app.refreshReleases();
  assert.equal(await versionsServed(t), { '2.7.0': 100 }, 'a beta release is not served by /version');

  assert.is((await publish(t, '2.7.1', { rolloutPercent: 100 })).status, 201, 'a stable hotfix below the beta');
  assert.equal(await publish(t, '2.7.2', { channel: 'beta', rolloutPercent: 100 }), {
    status: 409,
    body: {
      code: 'release_not_higher',
      message: 'Version 2.7.2 is lower than 2.8.0, the highest published on beta or a more stable channel: the clients it reached would be downgraded.',
      resolution:
        'Publish a version above the highest one GET /releases lists on that channel and the more stable ones; a typo in the version is the usual cause.',
    },
  });
  assert.equal(await publish(t, '2.9.0', { channel: 'nightly', rolloutPercent: 100 }), {
    status: 404,
    body: {
      code: 'channel_not_found',
      message: 'No update channel is named "nightly"; the channels are stable, beta.',
      resolution: 'Name a channel GET /releases lists in `channels`, such as stable or beta.',
    },
  });

  const again = await send(t, 'POST', '/releases/2.8.0/promote', { channel: 'beta' });
  assert.equal([again.status, again.body['channel']], [200, 'beta'], 'a promotion to its own channel, sent again, changes nothing');
  assert.equal(await send(t, 'POST', '/releases/2.7.1/promote', { channel: 'beta' }), {
    status: 409,
    body: {
      code: 'channel_not_more_stable',
      message: '2.7.1 is on stable, which beta is not more stable than: a release moves towards stable only.',
      resolution: 'Promote towards stable (GET /releases lists the channels, the most stable first); to stop serving a release, pull it.',
    },
  });
  const promoted = await send(t, 'POST', '/releases/2.8.0/promote', { channel: 'stable', rolloutPercent: 10 });
  assert.is(promoted.status, 200);
  assert.equal(
    [promoted.body['channel'], promoted.body['rolloutBasisPoints'], promoted.body['servedPercent'], promoted.body['publishedAt']],
    ['stable', 1000, 10, publishedAt],
    'on stable at 10 %, its first publication kept',
  );
  await t.app.refreshReleases();
  const served = await versionsServed(t);
  assert.ok((served['2.8.0'] ?? 0) > 0 && (served['2.8.0'] ?? 0) < 30, `2.8.0 to about a tenth: ${JSON.stringify(served)}`);
  assert.is((served['2.8.0'] ?? 0) + (served['2.7.1'] ?? 0), 100);

  const audit = (await send(t, 'GET', '/audit')).body['entries'] as { action: string; target: string }[];
  assert.equal(audit.map((e) => [e.action, e.target]), [
    ['release.promoted', '2.8.0 from beta to stable at 10%'],
    ['release.published', '2.7.1 at 100%'],
    ['release.published', '2.8.0 on beta at 100%'],
    ['release.published', '2.7.0 at 100%'],
  ]);
});

test("each channel's files list its own releases and the more stable ones'; a configured channel with none serves valid empty files", async () => {
  const online = await createTufSigner(await generateSigningKey());
  const rootKey = await createTufSigner(await generateSigningKey());
  const t = await createTestApp({ operatorToken: TOKEN, updates: { signer: online, channels: ['nightly'] } });
  for (const channel of ['stable', 'beta', 'nightly']) {
    const signed = await buildRoot({ version: 1, expires: t.clock.now() + 365 * DAY, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
    const text = envelopeText(await signEnvelope(signed, [rootKey]));
    await t.storage.change(async (tx) => {
      await tx.updateFiles.putUpdateFile({ channel, role: 'root', version: 1, text, storedAt: t.clock.now(), expiresAt: expiresMs(signed.expires) });
    });
  }
  assert.is((await publish(t, '2.7.0', { rolloutPercent: 100, sha256: 'ab'.repeat(32), size: 10 })).status, 201);
  assert.is((await publish(t, '2.8.0', { channel: 'beta', rolloutPercent: 100, sha256: 'cd'.repeat(32), size: 10 })).status, 201);
  await t.app.refreshReleases();
  const root = JSON.parse((await t.storage.updateFiles.newestUpdateFile('stable', 'root'))!.text);
  /** The versions the channel's newest targets file lists, its signature checked against the root. */
  const listed = async (channel: string) => {
    const timestamp = JSON.parse(bodyText(await t.app.handle(coreRequest({ path: `/updates/${channel}/timestamp.json` }))));
    const snapshot = JSON.parse(
      bodyText(await t.app.handle(coreRequest({ path: `/updates/${channel}/${timestamp.signed.meta['snapshot.json'].version}.snapshot.json` }))),
    );
    const targets = JSON.parse(
      bodyText(await t.app.handle(coreRequest({ path: `/updates/${channel}/${snapshot.signed.meta['targets.json'].version}.targets.json` }))),
    );
    assert.ok(await verifyEnvelope(targets, root.signed.keys, root.signed.roles.targets), `${channel} targets signed by the online key`);
    return Object.values(targets.signed.targets as Record<string, { custom: { version: string } }>).map((target) => target.custom.version).sort();
  };
  assert.equal(await listed('stable'), ['2.7.0']);
  assert.equal(await listed('beta'), ['2.7.0', '2.8.0']);
  assert.equal(await listed('nightly'), ['2.7.0', '2.8.0'], 'a channel named in the config lists beta and stable too');
  assert.is((await send(t, 'POST', '/releases/2.8.0/promote', { channel: 'stable' })).status, 200);
  await t.app.refreshReleases();
  assert.equal(await listed('stable'), ['2.7.0', '2.8.0'], 'a promotion reaches the stable files at the next refresh');
  const empty = await createTestApp({ operatorToken: TOKEN, updates: { signer: online } });
  const text = (await t.storage.updateFiles.newestUpdateFile('beta', 'root'))!.text;
  await empty.storage.change(async (tx) => {
    await tx.updateFiles.putUpdateFile({
      channel: 'beta',
      role: 'root',
      version: 1,
      text,
      storedAt: empty.clock.now(),
      expiresAt: expiresMs(root.signed.expires),
    });
  });
  await empty.app.refreshReleases();
  const timestamp = await empty.app.handle(coreRequest({ path: '/updates/beta/timestamp.json' }));
  assert.is(timestamp.status, 200, 'a channel with a root and no release serves its files');
  const targets = JSON.parse((await empty.storage.updateFiles.newestUpdateFile('beta', 'targets'))!.text);
  assert.ok(await verifyEnvelope(targets, root.signed.keys, root.signed.roles.targets));
  assert.equal(targets.signed.targets, {});
});

test('a channel name in the options that is bad, or stable again, throws at creation naming it', async () => {
  for (
    const [channels, message] of [
      [['Nightly'], 'updates.channels: channel "Nightly" must be 1 to 32 of a-z, 0-9 and "-"'],
      [['beta'], 'updates.channels: channel "beta" is named twice (stable and beta always exist)'],
    ] as const
  ) {
    let thrown = '';
    await createTestApp({ updates: { channels } }).catch((error: Error) => (thrown = error.message));
    assert.is(thrown, message);
  }
});

test.run();
