/**
 * `npm run lint` (deno lint over the whole repository, deno.json's rules, then `deno fmt --check` over the
 * TypeScript) finds nothing. The formatter leaves out Markdown (the docs wrap by hand), docs/examples/ (shown
 * verbatim in the docs, test/docs/examples.test.ts) and the files whose
 * `html` tagged templates are output (the operator pages, one browser test): it would reformat the HTML they
 * send. Two lint rules are off,
 * on purpose: `require-await` (the memory storage and the fakes implement async ports with async functions
 * that have nothing to await: returning a promise is the port's contract) and `no-control-regex` (the
 * validators refuse control characters with regexes that name them).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runToExit } from './_spawn.ts';

test('npm run lint finds no problem', async () => {
  // The script's own command line, as npm runs it (node_modules/.bin on PATH).
  const { code, stderr } = await runToExit('deno lint', { NO_COLOR: '1' });
  assert.is(code, 0, stderr);
  assert.match(stderr, /^Checked \d+ files\n$/);
});

test('deno fmt --check finds every TypeScript file formatted', async () => {
  const { code, stderr } = await runToExit('deno fmt --check', { NO_COLOR: '1' });
  assert.is(code, 0, stderr);
  assert.match(stderr, /^Checked \d+ files\n$/);
});

test.run();
