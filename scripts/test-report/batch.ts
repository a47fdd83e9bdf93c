/**
 * Runs several test files in one process, as uvu's own command-line runner does: each file is imported
 * as one group of uvu's queue (UVU_INDEX), then all run in order. Loaded after ./preload.ts, so each
 * suite's report names its group and scripts/run-tests.ts counts every file apart. Used for the unit
 * tier, whose files start no process and open no socket; any failure makes the runner run each file of
 * the batch again alone, so that a file is never judged by what it shared with others.
 *
 * Usage: node --import tsx --import scripts/test-report/preload.ts scripts/test-report/batch.ts file ...
 *
 * @module
 */
import { pathToFileURL } from 'node:url';

// Before uvu loads: it then leaves the run to `exec` below instead of starting it itself.
globalThis.UVU_DEFER = 1;
globalThis.UVU_QUEUE = [];
const { exec } = await import('uvu');
for (const [index, file] of process.argv.slice(2).entries()) {
  globalThis.UVU_INDEX = index;
  globalThis.UVU_QUEUE.push([file]);
  await import(pathToFileURL(file).href);
}
await exec();
