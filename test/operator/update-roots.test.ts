/**
 * POST /update-roots/{channel} and GET /update-files/{channel} through the app's operator handle, in
 * process, on memory storage with a real online key: a first root and a rotation stored and audited, the
 * exact answers, the file stored as the canonical JSON of what was sent, and the refusals' bodies; a stored
 * root purges its channel's cache tag, as new signed files do.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { buildRoot, createTufSigner, envelopeText, signEnvelope, type TufSigner } from '../../core/tuf/index.ts';
import { PURGE_AGAIN_AFTER_MS } from '../../core/updates/cache-purges.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const TOKEN = 'update-roots-0123456789-'.padEnd(40, 't');
const DAY = 86_400_000;
const signer = async () => createTufSigner(await generateSigningKey());
const [rootKey, nextRootKey, online] = await Promise.all([signer(), signer(), signer()]);

async function send(t: TestApp, method: string, path: string, json?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await t.app.operator!.handle(
    coreRequest({ method, path, headers: { authorization: `Bearer ${TOKEN}` }, ...(json === undefined ? {} : { json }) }),
  );
  return { status: response.status, body: bodyJson(response) };
}

/** A root file's text, as `updates sign-root` writes it. */
async function rootText(t: TestApp, version: number, rootKeys: TufSigner[], signers: TufSigner[]): Promise<string> {
  const signed = await buildRoot({
    version,
    expires: t.clock.now() + 365 * DAY,
    rootKeys: rootKeys.map((k) => k.key),
    rootThreshold: 1,
    onlineKey: online.key,
  });
  return envelopeText(await signEnvelope(signed, signers));
}

test('a first root and a rotation are stored, answered and audited; the status shows the online key and the chain', async () => {
  const t = await createTestApp({ operatorToken: TOKEN, updates: { signer: online } });
  const iso = (ms: number) => new Date(ms).toISOString();
  const expires = iso(t.clock.now() + 365 * DAY).replace(/\.\d{3}Z$/, '.000Z');
  assert.equal(await send(t, 'GET', '/update-files/stable'), {
    status: 200,
    body: {
      channel: 'stable',
      onlineKeyid: online.keyid,
      onlineKey: online.key,
      roles: { root: null, timestamp: null, snapshot: null, targets: null },
    },
  });
  const first = await rootText(t, 1, [rootKey], [rootKey]);
  assert.equal(await send(t, 'POST', '/update-roots/stable', JSON.parse(first)), {
    status: 201,
    body: { channel: 'stable', version: 1, expires, rootKeyids: [rootKey.keyid], onlineKeyid: online.keyid },
  });
  const storedAt = t.clock.now();
  t.clock.advance(60_000);
  const second = await rootText(t, 2, [nextRootKey], [rootKey, nextRootKey]);
  // Whitespace and key order as a person's editor left them: the stored file is the canonical JSON.
  const published = await send(t, 'POST', '/update-roots/stable', JSON.parse(JSON.stringify(JSON.parse(second), null, 2)));
  assert.equal(published.body, {
    channel: 'stable',
    version: 2,
    expires: iso(t.clock.now() + 365 * DAY),
    rootKeyids: [nextRootKey.keyid],
    onlineKeyid: online.keyid,
  });
  assert.is((await t.storage.updateFiles.getUpdateFile('stable', 'root', 1))!.text, first);
  assert.equal(await t.storage.updateFiles.getUpdateFile('stable', 'root', 2), {
    channel: 'stable',
    role: 'root',
    version: 2,
    text: second,
    storedAt: t.clock.now(),
    expiresAt: t.clock.now() + 365 * DAY,
  });
  assert.equal((await send(t, 'GET', '/update-files/stable')).body, {
    channel: 'stable',
    onlineKeyid: online.keyid,
    onlineKey: online.key,
    roles: { root: { version: 2, expires: iso(t.clock.now() + 365 * DAY), storedAt: iso(t.clock.now()) }, timestamp: null, snapshot: null, targets: null },
  });
  const audit = (await send(t, 'GET', '/audit')).body as { entries: { at: string; actor: string; action: string; target: string }[] };
  assert.equal(audit.entries.map(({ at, actor, action, target }) => ({ at, actor, action, target })), [
    { at: iso(t.clock.now()), actor: 'operator', action: 'update-root.published', target: 'stable 2' },
    { at: iso(storedAt), actor: 'operator', action: 'update-root.published', target: 'stable 1' },
  ]);
});

test('the refusals: a rotation by the new key alone, an unknown channel, a root for another online key, a server without one', async () => {
  const t = await createTestApp({ operatorToken: TOKEN, updates: { signer: online } });
  await send(t, 'POST', '/update-roots/stable', JSON.parse(await rootText(t, 1, [rootKey], [rootKey])));
  assert.equal(await send(t, 'POST', '/update-roots/stable', JSON.parse(await rootText(t, 2, [nextRootKey], [nextRootKey]))), {
    status: 400,
    body: {
      code: 'invalid_root',
      message: 'The root is signed by 0 of the 1 keys of root version 1 that must sign it: a rotation is signed by the old root key(s) too (--previous-key).',
      resolution: 'Sign the root again with `converter-site-api updates sign-root` (a rotation with --previous-key too), as the message says.',
    },
  });
  assert.equal(await send(t, 'GET', '/update-files/nightly'), {
    status: 404,
    body: {
      code: 'channel_not_found',
      message: 'No update channel is named "nightly"; the channels are stable, beta.',
      resolution: 'Name a channel GET /releases lists in `channels`, such as stable or beta.',
    },
  });
  const other = await createTestApp({ operatorToken: TOKEN, updates: { signer: nextRootKey } });
  const refused = await send(other, 'POST', '/update-roots/stable', JSON.parse(await rootText(other, 1, [rootKey], [rootKey])));
  assert.equal(refused, {
    status: 409,
    body: {
      code: 'root_online_key_unknown',
      message: `The root does not name this server's online key (keyid ${nextRootKey.keyid}) for timestamp, snapshot, targets: sign it with ` +
        `\`converter-site-api updates sign-root --online-key ${nextRootKey.key.keyval.public}\` (\`converter-site-api updates status\` prints the key).`,
      resolution: 'Sign the root with `converter-site-api updates sign-root --online-key <hex>`, the key `converter-site-api updates status` prints.',
    },
  });
  const keyless = await createTestApp({ operatorToken: TOKEN });
  const none = await send(keyless, 'POST', '/update-roots/stable', JSON.parse(await rootText(keyless, 1, [rootKey], [rootKey])));
  assert.equal([none.status, (none.body as { message: string }).message], [
    409,
    'This server has no online key to sign timestamp, snapshot and targets with: start it with UPDATES_ONLINE_KEY set ' +
    '(or let it generate one in storage), then sign the root for that key.',
  ]);
  assert.equal((await send(keyless, 'GET', '/update-files/stable')).body, {
    channel: 'stable',
    onlineKeyid: null,
    onlineKey: null,
    roles: { root: null, timestamp: null, snapshot: null, targets: null },
  });
  assert.is(((await send(t, 'GET', '/audit')).body as { entries: unknown[] }).entries.length, 1, 'only the first root was stored');
});

test("a new root purges the channel's tag once the app serves it (root.json changes under the same name); a refused one purges nothing", async () => {
  const purged: string[] = [];
  const purge = { name: 'recorder', purge: async (tags: readonly string[]) => void purged.push(...tags) };
  const t = await createTestApp({ operatorToken: TOKEN, updates: { signer: online, purge } });
  /** The refresh of the standalone server's loop, with its purges done: the tags purged. */
  const refresh = async () => {
    purged.length = 0;
    await t.app.refreshReleases();
    await t.app.purgesSettled();
    return [...purged];
  };
  const rootJson = async () => bodyText(await t.app.handle(coreRequest({ path: '/updates/beta/root.json' })));
  const first = await rootText(t, 1, [rootKey], [rootKey]);
  assert.is((await send(t, 'POST', '/update-roots/beta', JSON.parse(first))).status, 201);
  assert.equal(await refresh(), ['updates:beta'], 'the first root and the first signed files: one purge');
  /** The purge made once more 2 s later (core/updates/cache-purges.ts), then nothing. */
  const again = async () => {
    t.clock.advance(PURGE_AGAIN_AFTER_MS);
    assert.equal(await refresh(), ['updates:beta'], 'once more 2 s later');
    t.clock.advance(60_000);
    assert.equal(await refresh(), [], 'then nothing');
  };
  await again();
  const timestamp = await t.storage.updateFiles.newestUpdateFile('beta', 'timestamp');
  const second = await rootText(t, 2, [nextRootKey], [rootKey, nextRootKey]);
  assert.is((await send(t, 'POST', '/update-roots/beta', JSON.parse(second))).status, 201);
  assert.is(await rootJson(), first, 'served from memory: the old root until the refresh');
  assert.equal(await refresh(), ['updates:beta'], 'a rotation signs nothing new, and purges');
  assert.is(await rootJson(), second);
  assert.equal(await t.storage.updateFiles.newestUpdateFile('beta', 'timestamp'), timestamp, 'the same online key: no new timestamp');
  await again();
  assert.is((await send(t, 'POST', '/update-roots/beta', JSON.parse(second))).status, 400, 'the same root again');
  assert.is((await send(t, 'POST', '/update-roots/stable', JSON.parse(await rootText(t, 1, [rootKey], [nextRootKey])))).status, 400);
  assert.equal(await refresh(), [], 'a refused root purges nothing');
});

test.run();
