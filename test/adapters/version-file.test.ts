import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openVersionFile, parseVersionText } from '../../adapters/node/version-file.ts';
import { manualClock, memoryLogger } from '../_setup.ts';

const versionFile = suite('version file');
let dir = '';
versionFile.before.each(() => {
  dir = mkdtempSync(join(tmpdir(), 'version-'));
});
versionFile.after.each(() => rmSync(dir, { recursive: true, force: true }));

versionFile('the first line is the version; a BOM, a v prefix and white space are dropped', () => {
  assert.is(parseVersionText('\uFEFF v2.4.1 \r\nbuilt 2026-11-01\n'), '2.4.1');
  assert.is(parseVersionText('2.5.0-beta.1\n'), '2.5.0-beta.1');
  assert.throws(() => parseVersionText('latest'), /the version file holds "latest", which must be a version such as 2.4.1/);
});

versionFile('a changed file is served after the check interval, without a restart', async () => {
  const path = join(dir, 'version.txt');
  writeFileSync(path, '2.4.1\n');
  const clock = manualClock();
  const source = await openVersionFile(path, { clock, logger: memoryLogger() });
  assert.is(await source.current(), '2.4.1');
  writeFileSync(path, '2.4.2-rc.1\n');
  assert.is(await source.current(), '2.4.1');
  clock.advance(1000);
  assert.is(await source.current(), '2.4.2-rc.1');
});

versionFile('a file that becomes invalid or disappears is logged, and the last good version stays', async () => {
  const path = join(dir, 'version.txt');
  writeFileSync(path, '2.4.1\n');
  const clock = manualClock();
  const logger = memoryLogger();
  const source = await openVersionFile(path, { clock, logger });
  writeFileSync(path, 'garbage that is longer\n');
  clock.advance(1000);
  assert.is(await source.current(), '2.4.1');
  rmSync(path);
  clock.advance(1000);
  assert.is(await source.current(), '2.4.1');
  assert.equal(logger.lines.map((l) => l.message), [
    'could not read the version file; serving the last good version',
    'could not read the version file; serving the last good version',
  ]);
});

versionFile('a missing or invalid file at start is an error', async () => {
  const options = { clock: manualClock(), logger: memoryLogger() };
  await openVersionFile(join(dir, 'missing.txt'), options).then(
    () => assert.unreachable('should fail'),
    (error: NodeJS.ErrnoException) => assert.is(error.code, 'ENOENT'),
  );
  writeFileSync(join(dir, 'bad.txt'), 'v\n');
  await openVersionFile(join(dir, 'bad.txt'), options).then(
    () => assert.unreachable('should fail'),
    (error: Error) => assert.match(error.message, 'must be a version such as 2.4.1'),
  );
});

versionFile.run();
