/**
 * The operator listener of the real program, on the default storage (PGlite): started with
 * OPERATOR_PORT and OPERATOR_TOKEN, driven by the `release` command as an operator types it, and
 * refused at start without a proper token.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { runCommand } from '../_cli.ts';
import { freshPgliteDir } from '../_databases.ts';
import { listeningLine, ROOT, runCli, runProgramToExit, type ServerProcess, startServerProcess } from '../_spawn.ts';

const TOKEN = 'operator-program-0123456789-abcdefghij';
const MSI = 'https://downloads.example.com/LegacySheetConverter-2.5.0-x64.msi';

/**
 * A command as the program runs it, in this process (test/_cli.ts); `program` runs it as a child process,
 * once per command family, for the program itself.
 */
const command = (args: string[], env: Record<string, string>) => runCommand(args, { OPERATOR_TOKEN: TOKEN, ...env });
const program = (args: string[], env: Record<string, string>) => runCli(args, { OPERATOR_TOKEN: TOKEN, ...env });

const roadmapCommand = (args: string[], operatorUrl: string) => command(['roadmap', ...args], { OPERATOR_URL: operatorUrl });

const releaseCommand = (args: string[], operatorUrl: string) => command(['release', ...args], { OPERATOR_URL: operatorUrl });

test('OPERATOR_PORT without a token, or with one of fewer than 32 characters, stops the start with exit 78', async () => {
  const missing = await runProgramToExit({ OPERATOR_PORT: '0' });
  assert.is(missing.code, 78);
  assert.match(missing.stderr, 'configuration error: OPERATOR_TOKEN must be at least 32 characters when OPERATOR_PORT is set');
  const short = await runProgramToExit({ OPERATOR_PORT: '0', OPERATOR_TOKEN: 'x'.repeat(31) });
  assert.is(short.code, 78);
  const same = await runProgramToExit({ OPERATOR_PORT: '0', OPERATOR_TOKEN: 'x'.repeat(32) });
  assert.equal(same, {
    code: 78,
    stderr: 'configuration error: OPERATOR_TOKEN must have at least 8 different characters (it repeats a few) (for example: openssl rand -hex 32)',
  });
});

test('OPERATOR_PORT equal to PORT is refused at once with exit 78, before the storage is opened', async () => {
  const dataDir = await freshPgliteDir();
  rmSync(dataDir, { recursive: true, force: true });
  const clash = await runProgramToExit({ PORT: '18080', OPERATOR_PORT: '18080', OPERATOR_TOKEN: TOKEN, DATA_DIR: dataDir });
  assert.equal(clash, {
    code: 78,
    stderr: 'configuration error: OPERATOR_PORT must differ from PORT (both 18080 on 127.0.0.1): the operator API needs a listener of its own',
  });
  assert.not.ok(existsSync(dataDir), 'nothing was migrated');
});

test('on PGlite: the release command publishes at 10 %, widens and pulls; the public port serves each; the operator paths are not on it', async () => {
  const dataDir = await freshPgliteDir();
  const server = await startServerProcess({ DATA_DIR: dataDir, OPERATOR_PORT: '0', OPERATOR_TOKEN: TOKEN });
  try {
    const operatorUrl = String(listeningLine(server.stdout())!['operator']);
    assert.match(operatorUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const published = await program(['release', 'publish', '2.5.0', '--msi', MSI, '--percent', '10'], { OPERATOR_URL: operatorUrl });
    assert.is(published.code, 0, published.stderr);
    assert.match(published.stdout, /^VERSION +CHANNEL +ROLLOUT +SERVED +STATE +PLAN +PUBLISHED +MSI\n2\.5\.0 +stable +10% +10% +live +- /);
    const again = await releaseCommand(['publish', '2.5.0', '--msi', MSI], operatorUrl);
    assert.is(again.code, 1);
    assert.match(again.stderr, 'Version 2.5.0 was published before. (release_exists; 409)');
    assert.is((await releaseCommand(['widen', '2.5.0', '--percent', '100'], operatorUrl)).code, 0);
    assert.equal((await sendRequest(server.url, { path: '/api/v1/version' })).json(), { version: '2.5.0', downloadUrl: MSI });
    const listed = await releaseCommand(['list', '--json'], operatorUrl);
    assert.equal(
      (JSON.parse(listed.stdout) as { releases: { version: string; rolloutPercent: number }[] }).releases.map((r) => [r.version, r.rolloutPercent]),
      [['2.5.0', 100]],
    );
    assert.is((await releaseCommand(['pull', '2.5.0'], operatorUrl)).code, 0);
    assert.is(((await sendRequest(server.url, { path: '/api/v1/version' })).json() as { version: string }).version, '2.4.1');
    assert.is((await releaseCommand(['restore', '2.5.0'], operatorUrl)).code, 0);
    assert.is(((await sendRequest(server.url, { path: '/api/v1/version' })).json() as { version: string }).version, '2.5.0');
    // --file: the MSI's SHA-256 and size from the local file.
    const msiFile = join(dataDir, 'LegacySheetConverter-2.6.0-x64.msi');
    const bytes = Buffer.alloc(200_000, 7);
    writeFileSync(msiFile, bytes);
    const withFile = await releaseCommand(
      ['publish', '2.6.0', '--msi', MSI.replace('2.5.0', '2.6.0'), '--file', msiFile, '--percent', '0', '--json'],
      operatorUrl,
    );
    assert.is(withFile.code, 0, withFile.stderr);
    const stored = JSON.parse(withFile.stdout) as { sha256: string; size: number };
    assert.equal([stored.sha256, stored.size], [createHash('sha256').update(bytes).digest('hex'), 200_000]);
    const missingFile = await releaseCommand(['publish', '2.7.0', '--msi', MSI, '--file', join(dataDir, 'none.msi')], operatorUrl);
    assert.equal([missingFile.code, missingFile.stderr.split('\n')[0]], [
      64,
      `converter-site-api release: --file ${join(dataDir, 'none.msi')} cannot be read (ENOENT)`,
    ]);
    // A ramp plan: --ramp and --every; the list shows the plan and the step in force.
    const ramped = await releaseCommand(
      ['publish', '2.7.0', '--msi', MSI.replace('2.5.0', '2.7.0'), '--ramp', '1,5,25,100', '--every', '24h', '--json'],
      operatorUrl,
    );
    assert.is(ramped.code, 0, ramped.stderr);
    const plan = JSON.parse(ramped.stdout) as { rolloutPercent: number; ramp: { steps: number[]; everyMinutes: number; step: number } };
    assert.equal([plan.rolloutPercent, plan.ramp.steps, plan.ramp.everyMinutes, plan.ramp.step], [1, [1, 5, 25, 100], 1440, 1]);
    assert.match((await releaseCommand(['list'], operatorUrl)).stdout, /\n2\.7\.0 +stable +1% +\d+% +live +1,5,25,100 \/1440m step 1, next \d{4}-/);
    const badEvery = await releaseCommand(['publish', '2.8.0', '--msi', MSI, '--ramp', '1,100', '--every', 'daily'], operatorUrl);
    assert.equal([badEvery.code, badEvery.stderr.split('\n')[0]], [
      64,
      'converter-site-api release: --every must be a whole number of minutes, hours or days such as 24h, not "daily"',
    ]);
    const notHalted = await releaseCommand(['resume', '2.7.0'], operatorUrl);
    assert.equal([notHalted.code, notHalted.stderr.includes('(release_not_halted; 409)')], [notHalted.code, true]);
    const onPublic = await sendRequest(server.url, { path: '/releases', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.is(onPublic.status, 404);
    // The export command reads the feedback through the operator API while the server holds DATA_DIR.
    for (const description of ['First, "quoted"', 'Second']) {
      const body = JSON.stringify({ description });
      const stored = await sendRequest(server.url, { method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body });
      assert.is(stored.status, 201);
    }
    const held = await command(['export', 'feedback', '--format', 'csv'], { DATA_DIR: dataDir });
    assert.is(held.code, 78, 'without OPERATOR_URL the held DATA_DIR is refused as before');
    const exported = await command(['export', 'feedback', '--format', 'csv'], { DATA_DIR: dataDir, OPERATOR_URL: operatorUrl });
    assert.is(exported.code, 0, exported.stderr);
    const lines = exported.stdout.trim().split('\r\n');
    assert.is(lines.length, 3, exported.stdout);
    assert.is(lines[0], 'id,receivedAt,type,rating,appVersion,email,description,handledAt', "the columns of the Inbox page's CSV");
    assert.match(lines[1]!, /^1,\S+,general,,,,"First, ""quoted""",$/);
    assert.match(lines[2]!, /^2,\S+,general,,,,Second,$/);
    assert.match(exported.stderr, 'reading the feedback through its operator API');
    // Triage: the inbox as a table, one entry handled, then the handled filter.
    const inbox = await program(['feedback', 'list', '--handled', 'false'], { OPERATOR_URL: operatorUrl });
    assert.is(inbox.code, 0, inbox.stderr);
    assert.match(
      inbox.stdout,
      /^ID +RECEIVED +TYPE +RATING +HANDLED +FEATURE +EMAIL +DESCRIPTION\n2 +\S+ +general +- +no +- +- +Second\n1 +\S+ +general +- +no +- +- +First, "quoted"\n$/,
    );
    assert.is((await command(['feedback', 'handle', '1'], { OPERATOR_URL: operatorUrl })).code, 0);
    const handled = await command(['feedback', 'list', '--handled', 'true', '--json'], { OPERATOR_URL: operatorUrl });
    assert.equal((JSON.parse(handled.stdout) as { entries: { id: number }[] }).entries.map((e) => e.id), [1]);
    const handledAt = (JSON.parse(handled.stdout) as { entries: { handledAt: string }[] }).entries[0]!.handledAt;
    const afterHandle = await command(['export', 'feedback', '--format', 'csv'], { DATA_DIR: dataDir, OPERATOR_URL: operatorUrl });
    assert.match(afterHandle.stdout, `\r\n1,`);
    assert.match(afterHandle.stdout, `,"First, ""quoted""",${handledAt}\r\n`);
    // Linking to the roadmap: one entry, then both, then unlinking one; the list shows each entry's feature.
    const linked = await command(['feedback', 'link', '2', '--feature', '3'], { OPERATOR_URL: operatorUrl });
    assert.equal([linked.code, linked.stdout], [0, '2 linked to feature 3\n'], linked.stderr);
    assert.equal(
      (await command(['feedback', 'link', '1', '2', '--feature', '3'], { OPERATOR_URL: operatorUrl })).stdout,
      '1 linked to feature 3: 1; 1 so already, 0 not found\n',
    );
    assert.equal((await command(['feedback', 'unlink', '1'], { OPERATOR_URL: operatorUrl })).stdout, '1 unlinked\n');
    const withFeature = await command(['feedback', 'list', '--json'], { OPERATOR_URL: operatorUrl });
    assert.equal((JSON.parse(withFeature.stdout) as { entries: { id: number; featureId: number | null }[] }).entries.map((e) => [e.id, e.featureId]), [[2, 3], [
      1,
      null,
    ]]);
    assert.is((await command(['feedback', 'link', '1'], { OPERATOR_URL: operatorUrl })).code, 64);
    const quiet = await command(['roadmap', 'requester-mails', '3', 'off'], { OPERATOR_URL: operatorUrl });
    assert.equal([quiet.code, quiet.stdout], [0, 'feature 3: requesters are not told when it ships\n'], quiet.stderr);
    assert.is((await command(['roadmap', 'requester-mails', '3', 'maybe'], { OPERATOR_URL: operatorUrl })).code, 64);
    const missing = await command(['feedback', 'handle', '99'], { OPERATOR_URL: operatorUrl });
    assert.equal([missing.code, missing.stderr.split('\n')[0]], [1, 'converter-site-api feedback: No feedback has id "99". (feedback_not_found; 404)']);
    // Two update checks and two submissions so far today, no download.
    const stats = await program(['stats', '--days', '1'], { OPERATOR_URL: operatorUrl });
    assert.is(stats.code, 0, stats.stderr);
    assert.match(stats.stdout, /^DAY +DOWNLOADS +UPDATE CHECKS +ORDERS +FEEDBACK\n\d{4}-\d\d-\d\d +0 +3 +0 +2\nTOTAL +0 +3 +0 +2\n/);
    assert.match(stats.stdout, 'update checks by release: 2.5.0 2, 2.4.1 1');
  } finally {
    assert.is(await server.stop(), 0);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('on PGlite: roadmap edits made with the roadmap command survive a restart; a config file edit is applied at start and named in the log', async () => {
  const dataDir = await freshPgliteDir();
  const configFile = join(dataDir, '..', `config-${process.pid}.json`);
  const config = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as { versionFile: string; roadmap: { id: number; title: string }[] };
  config.versionFile = join(ROOT, 'example', config.versionFile);
  writeFileSync(configFile, JSON.stringify(config));
  const env = { DATA_DIR: dataDir, CONFIG_FILE: configFile, OPERATOR_PORT: '0', OPERATOR_TOKEN: TOKEN };
  const publicTitles = async (url: string) =>
    ((await sendRequest(url, { path: '/api/v1/roadmap' })).json() as { features: { id: number; title: string }[] }).features.map((f) => `${f.id} ${f.title}`);
  const seeded = /roadmap: the config file changed features, applied/;
  // Stopped in finally too: a failed assertion must not leave the program running (the test would hang).
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(env);
    let operatorUrl = String(listeningLine(server.stdout())!['operator']);
    assert.not.ok(server.lines.some((line) => seeded.test(line)), 'seeding the empty storage changes nothing stored: no line');
    const added = await program(['roadmap', 'add', '--title', 'Symphony (.wrk) input', '--category', 'formats'], { OPERATOR_URL: operatorUrl });
    assert.is(added.code, 0, added.stderr);
    assert.match(added.stdout, /^ID +VOTES +STATE +RELEASE +CATEGORY +TITLE\n6 +0 +shown +- +formats +Symphony \(\.wrk\) input\n$/);
    assert.is((await roadmapCommand(['edit', '1', '--title', 'Quattro Pro input', '--release', '2.4.1'], operatorUrl)).code, 0);
    const merged = await roadmapCommand(['merge', '3', '--into', '4', '--json'], operatorUrl);
    assert.is(merged.code, 0, merged.stderr);
    assert.is((JSON.parse(merged.stdout) as { merged: { merged_into: number } }).merged.merged_into, 4);
    const refused = await roadmapCommand(['merge', '3', '--into', '4'], operatorUrl);
    assert.is(refused.code, 1);
    assert.match(refused.stderr, 'Feature 3 was merged into feature 4 before. (feature_already_merged; 409)');
    const edited = await publicTitles(server.url);
    assert.ok(edited.includes('1 Quattro Pro input') && edited.includes('6 Symphony (.wrk) input') && !edited.some((t) => t.startsWith('3 ')));
    assert.is(await server.stop(), 0);

    // The same config file: nothing is applied, every edit stays.
    server = await startServerProcess(env);
    assert.equal(await publicTitles(server.url), edited);
    assert.not.ok(server.lines.some((line) => seeded.test(line)));
    assert.is(await server.stop(), 0);

    // The operator edits feature 2 in the config file: it is applied, and the log names it.
    config.roadmap.find((f) => f.id === 2)!.title = 'Formulas kept in XLSX';
    writeFileSync(configFile, JSON.stringify(config));
    server = await startServerProcess(env);
    operatorUrl = String(listeningLine(server.stdout())!['operator']);
    const line = server.lines.find((l) => seeded.test(l));
    assert.ok(line, server.lines.join('\n'));
    assert.equal([JSON.parse(line!).applied, JSON.parse(line!).hidden], [[2], []]);
    const after = await publicTitles(server.url);
    assert.equal(after, edited.map((t) => (t.startsWith('2 ') ? '2 Formulas kept in XLSX' : t)));
    const listed = await roadmapCommand(['list'], operatorUrl);
    assert.match(listed.stdout, /\n3 +0 +merged into 4 +/);
    assert.is(await server.stop(), 0);
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configFile, { force: true });
  }
});

test.run();
