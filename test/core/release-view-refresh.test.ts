/**
 * A refresh after an operator change serves the change: a background read begun before the change (and
 * answered after it) is not taken for the refresh's own read.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReleaseView } from '../../core/releases/release-view.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { Release, ReleaseReads } from '../../core/ports/release-store.ts';
import { manualClock, memoryLogger } from '../_setup.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

test('a refresh while an older read is under way reads again: the pulled release is no longer served', async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const { releases } = storage;
  await storage.change((tx) =>
    tx.releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutBasisPoints: 10000, publishedAt: clock.now() })
  );
  /** The store, with each list held until `release()`: the answer it gives is what was stored when it was asked. */
  const held: (() => void)[] = [];
  const store: ReleaseReads = {
    ...releases,
    listReleases: async () => {
      const answer = await releases.listReleases();
      await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    },
  };
  const release = () => held.splice(0).forEach((resume) => resume());
  const baseline = { version: '2.4.1', msiUrl: MSI('2.4.1') };
  const view = createReleaseView(store, () => baseline, () => 0, clock, memoryLogger());
  const first = view.refresh();
  await Promise.resolve();
  release();
  await first;
  assert.is((await view.pick('client'))!.version, '2.5.0');

  clock.advance(600);
  view.pick('client'); // starts a background read, which lists before the pull
  await Promise.resolve();
  await storage.change((tx) => tx.releases.pullRelease('2.5.0', clock.now()));
  const refreshed = view.refresh();
  for (let i = 0; i < 5; i++) {
    release();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await refreshed;
  assert.equal(view.known().map((r: Release) => [r.version, r.pulledAt]), [['2.5.0', clock.now()]]);
  assert.is((await view.pick('client'))!.version, '2.4.1', 'the baseline, once 2.5.0 is pulled');
});

test.run();
