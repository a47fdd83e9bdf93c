/**
 * Contract: the signed update files (core/ports/update-files.ts). A file is stored once per channel, role
 * and version, never replaced (of two puts of one version, even at once, one stores and the first bytes
 * stay); a role's newest is its highest version; a channel's files are listed, all, since a time or above
 * the versions given; pruning keeps every root and each role's newest; a change that throws after putting
 * leaves nothing.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';
import type { UpdateFile, UpdateFileRole } from '../../core/ports/update-files.ts';

const T0 = Date.UTC(2026, 11, 1, 9, 0, 0, 123);
const DAY = 24 * 60 * 60 * 1000;

/** A metadata file as a publish stores it: its text names its role and version, `note` tells two apart. */
const file = (role: UpdateFileRole, version: number, storedAt: number, over: Partial<UpdateFile> = {}): UpdateFile => ({
  channel: 'stable',
  role,
  version,
  text: `{"signatures":[{"keyid":"k1","sig":"aa"}],"signed":{"_type":"${role}","expires":"2026-12-02T09:00:00Z","spec_version":"1.0.31","version":${version}}}`,
  storedAt,
  expiresAt: storedAt + DAY,
  ...over,
});

/** A list grouped by role (roles may come in any order), each role's order kept. */
const byRole = (files: readonly UpdateFile[]) => [...files].sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));

/** What a list holds, as [role, version]: grouped by role, each role's order kept. */
const listed = (files: readonly UpdateFile[]) => byRole(files).map((f) => [f.role, f.version]);

/** Files of two channels: every role of stable, some in several versions stored at several times, and two of beta. */
const twoChannels: readonly UpdateFile[] = [
  file('root', 1, T0),
  file('root', 2, T0 + 1),
  file('timestamp', 1, T0),
  file('timestamp', 2, T0 + 10),
  file('timestamp', 3, T0 + 20),
  file('snapshot', 1, T0),
  file('snapshot', 2, T0 + 30),
  file('targets', 1, T0),
  file('timestamp', 1, T0, { channel: 'beta' }),
  file('timestamp', 2, T0 + 1, { channel: 'beta' }),
];

export function updateFilesContract(test: ContractSuite): void {
  test('a version is stored once: a second put of it is false and the first bytes stay', async (context) => {
    const { storage } = current(context);
    const { updateFiles } = oneChangeEach(storage);
    // Non-ASCII in the text: the bytes served are the bytes stored.
    const first = file('timestamp', 1, T0, { text: '{"signed":{"_type":"timestamp","note":"Tabellenkalkulation – 1 €","version":1}}' });
    assert.is(await storage.updateFiles.getUpdateFile('stable', 'timestamp', 1), null, 'a version never stored reads null: getUpdateFile()');
    assert.is(await updateFiles.putUpdateFile(first), true, 'a file of a version not stored is stored: the first putUpdateFile()');
    assert.is(
      await updateFiles.putUpdateFile(file('timestamp', 1, T0 + 1000, { text: '{"other":"bytes"}', expiresAt: T0 + 2 * DAY })),
      false,
      'a file of a stored version stores nothing: a second putUpdateFile() of (stable, timestamp, 1)',
    );
    assert.equal(await storage.updateFiles.getUpdateFile('stable', 'timestamp', 1), first, 'the first file of a version stays, exactly: getUpdateFile()');
    assert.is(await updateFiles.putUpdateFile(file('snapshot', 1, T0)), true, 'each role has its own versions: putUpdateFile() of (stable, snapshot, 1)');
    assert.is(
      await updateFiles.putUpdateFile(file('timestamp', 1, T0, { channel: 'beta' })),
      true,
      'each channel has its own versions: putUpdateFile() of (beta, timestamp, 1)',
    );
    assert.is(await storage.updateFiles.getUpdateFile('stable', 'timestamp', 2), null, 'a version never stored reads null: getUpdateFile() of version 2');
    assert.equal(listed(await storage.updateFiles.listUpdateFiles('stable')), [['snapshot', 1], ['timestamp', 1]], 'one file per version: listUpdateFiles()');
  });

  test('the newest file of a role is its highest version, whatever the order they were stored in', async (context) => {
    const { storage } = current(context);
    const { updateFiles } = oneChangeEach(storage);
    assert.is(await storage.updateFiles.newestUpdateFile('stable', 'targets'), null, 'a role with no file has no newest: newestUpdateFile()');
    for (const version of [1, 3, 2]) await updateFiles.putUpdateFile(file('targets', version, T0 + version));
    await updateFiles.putUpdateFile(file('targets', 7, T0, { channel: 'beta' }));
    await updateFiles.putUpdateFile(file('root', 5, T0));
    assert.equal(
      await storage.updateFiles.newestUpdateFile('stable', 'targets'),
      file('targets', 3, T0 + 3),
      "the newest is the role's highest version: newestUpdateFile()",
    );
    assert.is((await storage.updateFiles.newestUpdateFile('beta', 'targets'))?.version, 7, "each channel's own newest: newestUpdateFile('beta').version");
    assert.is((await storage.updateFiles.newestUpdateFile('stable', 'root'))?.version, 5, "each role's own newest: newestUpdateFile('root').version");
    assert.is(await storage.updateFiles.newestUpdateFile('stable', 'snapshot'), null, 'a role with no file has no newest: newestUpdateFile(snapshot)');
  });

  test("a channel's files are listed, each role's in ascending version; since keeps those stored at or after it", async (context) => {
    const { storage } = current(context);
    const { updateFiles } = oneChangeEach(storage);
    assert.equal(await storage.updateFiles.listUpdateFiles('stable'), [], 'a channel with no file lists none: listUpdateFiles()');
    await updateFiles.putUpdateFile(file('timestamp', 2, T0 + 20));
    await updateFiles.putUpdateFile(file('root', 1, T0));
    await updateFiles.putUpdateFile(file('timestamp', 1, T0 + 10));
    await updateFiles.putUpdateFile(file('snapshot', 1, T0 + 10));
    await updateFiles.putUpdateFile(file('timestamp', 3, T0 + 30));
    await updateFiles.putUpdateFile(file('timestamp', 9, T0 + 30, { channel: 'beta' }));
    const all = await storage.updateFiles.listUpdateFiles('stable');
    assert.equal(
      listed(all),
      [['root', 1], ['snapshot', 1], ['timestamp', 1], ['timestamp', 2], ['timestamp', 3]],
      "every file of the channel, each role's in ascending version: listUpdateFiles() [role, version]",
    );
    assert.equal(
      all.find((f) => f.role === 'timestamp' && f.version === 2),
      file('timestamp', 2, T0 + 20),
      'a listed file is the file stored: listUpdateFiles()',
    );
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable', T0 + 20)),
      [['timestamp', 2], ['timestamp', 3]],
      'the files stored at or after since: listUpdateFiles(since) [role, version]',
    );
    assert.equal(await storage.updateFiles.listUpdateFiles('stable', T0 + 31), [], 'none stored since: listUpdateFiles(since after the last)');
    assert.equal(listed(await storage.updateFiles.listUpdateFiles('beta', T0)), [['timestamp', 9]], "only the channel's own files: listUpdateFiles('beta')");
  });

  test("above keeps, of a channel's files, those above the version it gives their role: with each role's newest, nothing", async (context) => {
    const { storage } = current(context);
    const { updateFiles } = oneChangeEach(storage);
    for (const stored of twoChannels) await updateFiles.putUpdateFile(stored);
    const newest = { root: 2, timestamp: 3, snapshot: 2, targets: 1 };
    assert.equal(await storage.updateFiles.listUpdateFiles('stable', undefined, newest), [], "above each role's newest: none, listUpdateFiles(above)");
    assert.equal(
      byRole(await storage.updateFiles.listUpdateFiles('stable', undefined, { ...newest, root: 1, timestamp: 1 })),
      [file('root', 2, T0 + 1), file('timestamp', 2, T0 + 10), file('timestamp', 3, T0 + 20)],
      "the files above the versions given, whole, each role's in ascending version: listUpdateFiles(above root 1, timestamp 1)",
    );
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable', undefined, { timestamp: 2 })),
      [['root', 1], ['root', 2], ['snapshot', 1], ['snapshot', 2], ['targets', 1], ['timestamp', 3]],
      'a role above does not name keeps every version: listUpdateFiles(above timestamp 2) [role, version]',
    );
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable', T0 + 10, { timestamp: 2 })),
      [['snapshot', 2], ['timestamp', 3]],
      'since and above both hold: listUpdateFiles(since T0 + 10, above timestamp 2) [role, version]',
    );
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('beta', undefined, { timestamp: 1 })),
      [['timestamp', 2]],
      "another channel's files by its own versions: listUpdateFiles('beta', above timestamp 1)",
    );
  });

  test("pruning deletes old files that are not their role's newest, and never a root", async (context) => {
    const { storage } = current(context);
    const { updateFiles } = oneChangeEach(storage);
    for (const stored of twoChannels) await updateFiles.putUpdateFile(stored);
    assert.is(await updateFiles.pruneUpdateFiles('stable', T0 + 10), 2, 'files stored before `before` go, one stored at it stays: pruneUpdateFiles() count');
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable')),
      [['root', 1], ['root', 2], ['snapshot', 2], ['targets', 1], ['timestamp', 2], ['timestamp', 3]],
      "roots stay, and each role's newest however old: listUpdateFiles() after pruneUpdateFiles(T0 + 10)",
    );
    assert.is(await updateFiles.pruneUpdateFiles('stable', T0 + DAY), 1, "only what is not its role's newest goes, never a root: pruneUpdateFiles() count");
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable')),
      [['root', 1], ['root', 2], ['snapshot', 2], ['targets', 1], ['timestamp', 3]],
      "every root and each role's newest stay: listUpdateFiles() after pruneUpdateFiles(T0 + 1 day)",
    );
    assert.is(await updateFiles.pruneUpdateFiles('stable', T0 + DAY), 0, 'nothing more to prune: a second pruneUpdateFiles() count');
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('beta')),
      [['timestamp', 1], ['timestamp', 2]],
      "another channel's files stay: listUpdateFiles('beta')",
    );
    assert.equal(await storage.updateFiles.getUpdateFile('stable', 'timestamp', 1), null, 'a pruned file reads null: getUpdateFile()');
  });

  test('a publish stores its files in one change: one that throws after putting leaves nothing stored', async (context) => {
    const { storage } = current(context);
    const publish = [file('targets', 1, T0), file('snapshot', 1, T0), file('timestamp', 1, T0)];
    const failure = new Error('refused after the puts');
    const inside: { puts: boolean[]; read: unknown[] } = { puts: [], read: [] };
    const thrown = await storage
      .change(async (tx) => {
        for (const stored of publish) inside.puts.push(await tx.updateFiles.putUpdateFile(stored));
        inside.read = listed(await tx.updateFiles.listUpdateFiles('stable'));
        throw failure;
      })
      .catch((error: unknown) => error);
    assert.is(thrown, failure, 'the very error the work threw');
    assert.equal(inside.puts, [true, true, true], 'a change stores its files: putUpdateFile() of targets, snapshot, timestamp in the change');
    assert.equal(inside.read, [['snapshot', 1], ['targets', 1], ['timestamp', 1]], 'a change reads its own puts: listUpdateFiles() in the change');
    assert.equal(await storage.updateFiles.listUpdateFiles('stable'), [], 'a change that throws after putting leaves nothing stored: listUpdateFiles()');
    assert.is(
      await storage.updateFiles.newestUpdateFile('stable', 'timestamp'),
      null,
      'a change that throws after putting leaves no newest: newestUpdateFile()',
    );
    const stored = await storage.change(async (tx) => {
      const answers: boolean[] = [];
      for (const each of publish) answers.push(await tx.updateFiles.putUpdateFile(each));
      return answers;
    });
    assert.equal(stored, [true, true, true], 'the rolled-back puts left no trace of their versions: putUpdateFile() in the next change');
    assert.equal(
      listed(await storage.updateFiles.listUpdateFiles('stable')),
      [['snapshot', 1], ['targets', 1], ['timestamp', 1]],
      'a change that resolves keeps all its files: listUpdateFiles()',
    );
  });

  test("two changes putting one version at once store exactly one file, the storing one's", async (context) => {
    const { storage } = current(context);
    const racers = ['first', 'second'].map((name) => file('timestamp', 1, T0, { text: `{"signed":{"_type":"timestamp","racer":"${name}","version":1}}` }));
    const put = (racer: UpdateFile) =>
      storage.change(async (tx) => {
        // Both changes open before either puts (on a database with concurrent transactions), as two instances signing at once.
        await new Promise((resolve) => setTimeout(resolve, 5));
        return tx.updateFiles.putUpdateFile(racer);
      });
    const answers = await Promise.all(racers.map(put));
    assert.equal([...answers].sort(), [false, true], 'of two puts of one version at once, one stores: putUpdateFile() in two changes');
    const winner = racers[answers.indexOf(true)]!;
    assert.equal(await storage.updateFiles.getUpdateFile('stable', 'timestamp', 1), winner, "the stored bytes are the storing change's: getUpdateFile()");
    assert.equal(listed(await storage.updateFiles.listUpdateFiles('stable')), [['timestamp', 1]], 'exactly one file of the version: listUpdateFiles()');
  });
}
