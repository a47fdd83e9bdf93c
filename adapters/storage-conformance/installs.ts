/**
 * Contract: installs by install id count once per install id, version and day, at most `perClient` of one
 * client a version and day; reporting installs count as bug reporters do.
 *
 * @module
 */
import * as assert from './assert.ts';
import type { InstallPing } from '../../core/ports/install-store.ts';
import { type ContractSuite, current } from './context.ts';

const DAY = 20_417; // 2025-11-25
const ping = (installHash: string, over: Partial<InstallPing> = {}): InstallPing => ({
  day: DAY,
  channel: 'stable',
  release: '2.6.0',
  installHash,
  clientHash: 'c1',
  ...over,
});

export function installsContract(test: ContractSuite): void {
  test('an install id counts once per version and day, whatever it sends, also when sent twice at once', async (context) => {
    const { installs } = current(context).storage;
    assert.equal(
      [await installs.addInstall(ping('a'), 10), await installs.addInstall(ping('a'), 10), await installs.addInstall(ping('b'), 10)],
      [true, false, true],
      'the first ping of an install id, version and day counts, a repeat does not: addInstall()',
    );
    assert.equal(
      await Promise.all([installs.addInstall(ping('c'), 10), installs.addInstall(ping('c', { clientHash: 'c2' }), 10)]).then((r) => r.filter(Boolean).length),
      1,
      'the same install id sent twice at once counts once: addInstall() (how many true)',
    );
    assert.ok(await installs.addInstall(ping('a', { release: '2.5.0' }), 10), 'another version is another install: addInstall()');
    assert.ok(await installs.addInstall(ping('a', { day: DAY + 1 }), 10), 'another day is another install: addInstall()');
    assert.is(await installs.addInstall(ping('a', { channel: 'beta' }), 10), false, 'another channel is the same install: addInstall()');
    assert.equal(await installs.list(DAY, DAY + 1), [
      { day: DAY, channel: 'stable', release: '2.5.0', count: 1 },
      { day: DAY, channel: 'stable', release: '2.6.0', count: 3 },
      { day: DAY + 1, channel: 'stable', release: '2.6.0', count: 1 },
    ], 'one count per install kept, by day, then channel, then release: list()');
    assert.equal(await installs.list(DAY + 2, DAY + 9), [], 'days with no installs list none: list()');
  });

  test('at most perClient install ids of one client count for a version a day; one over it keeps nothing', async (context) => {
    const { installs } = current(context).storage;
    const results = [];
    for (const id of ['a', 'b', 'c', 'd']) results.push(await installs.addInstall(ping(id), 3));
    assert.equal(results, [true, true, true, false], 'three ids of client c1 count, the fourth not: addInstall() with perClient 3');
    assert.ok(await installs.addInstall(ping('d', { clientHash: 'c2' }), 3), 'the fourth id from another client counts: it was not kept');
    assert.ok(await installs.addInstall(ping('e', { release: '2.5.0' }), 3), "another version: the client's own places");
    assert.ok(await installs.addInstall(ping('e', { day: DAY + 1 }), 3), 'another day: the places are free again');
    assert.is(await installs.addInstall(ping('f', { clientHash: 'c3' }), 0), false, 'perClient 0 counts none');
    assert.equal(
      (await installs.list(DAY, DAY + 1)).map((c) => [c.day, c.release, c.count]),
      [[DAY, '2.5.0', 1], [DAY, '2.6.0', 4], [DAY + 1, '2.6.0', 1]],
      'only the counted pings: list() [day, release, count]',
    );
  });

  test('reporting installs count once per install and release, with their networks, by the time of their reports', async (context) => {
    const { installs } = current(context).storage;
    const T = DAY * 86_400_000;
    const report = (installHash: string, networkHash: string, at: number, release = '2.6.0') =>
      installs.addReporter({ release, clientHash: installHash, networkHash, at });
    assert.equal([await report('a', 'n1', T), await report('a', 'n1', T + 50), await report('b', 'n1', T + 10), await report('c', 'n2', T + 100)], [
      true,
      false,
      true,
      true,
    ], "an install's first report of a release is true, a later one false: addReporter()");
    assert.ok(await report('a', 'n1', T + 5, '2.5.0'), 'another release: another reporter');
    assert.equal(await installs.reporters('2.6.0', T, T + 100), { clients: 3, networks: 2 }, 'distinct installs and networks that reported: reporters()');
    assert.equal(await installs.reporters('2.6.0', T + 20, T + 99), { clients: 1, networks: 1 }, 'by first and latest report, as bug reporters: reporters()');
    assert.equal(await installs.reporters('2.6.0', T + 20, T + 100, T + 20), { clients: 1, networks: 1 }, 'n1 reported before T + 20: a and b count no more');
    assert.equal(await installs.reporters('2.6.0', T, T + 100, T + 101), { clients: 0, networks: 0 }, 'every network reported before T + 101: none counts');
    assert.equal(await installs.reporters('2.4.0', T, T + 100), { clients: 0, networks: 0 }, "another release's reports do not count: reporters()");
    assert.equal(await current(context).storage.usage.reporters('2.6.0', T, T + 100), { clients: 0, networks: 0 }, 'nor are they bug reporters by address');
  });
}
