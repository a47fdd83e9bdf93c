/**
 * Writes docs/vectors/update-files.json: the update files' client cases of server/scenarios/update-files.ts
 * (good, expired, rolled back, mix-and-match, wrong key, rotations, halted, pulled, ramp edges, fractional
 * percent, hotfix cohort, wrong clock), each with the files served, the app's trusted state, clock and
 * install, and the outcome it must reach. Deterministic: fixed test-only keys, times and install ids. Run
 * with `node --import tsx scripts/update-file-vectors.ts`; test/core/update-file-vectors.test.ts checks
 * that the file is what this code makes, and runs every case through core/tuf/client.ts and tuf-js.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { type UpdateFilesCase, updateFilesCases } from '../server/scenarios/update-files.ts';

export const UPDATE_FILES_VECTORS_PATH = new URL('../docs/vectors/update-files.json', import.meta.url);

/** The vectors as this code makes them. */
export async function makeUpdateFileVectors(): Promise<{ about: string; cases: UpdateFilesCase[] }> {
  return {
    about: 'TUF 1.0 update files of one channel for the desktop app\'s tests (docs/conformance.md "Client-side vectors"): for each case, ' +
      'serve `files` (path under /updates/{channel}/ to text, UTF-8) to a client that trusts `trusted` (the pinned root, and for some cases ' +
      'the files of its last good check), whose clock is `now`, with `installId` and `installedVersion` installed; it must conclude ' +
      '`expected`: `install <version>`, `none`, or `refuse <reason>` (the reasons of core/tuf/client.ts). `stockClient` is what a stock ' +
      'TUF client (tuf-js) concludes. Signed with test-only keys: never trust them outside tests.',
    cases: await updateFilesCases(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(UPDATE_FILES_VECTORS_PATH, `${JSON.stringify(await makeUpdateFileVectors(), null, 2)}\n`);
  console.log(`wrote ${UPDATE_FILES_VECTORS_PATH.pathname}`);
}
