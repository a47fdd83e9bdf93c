/**
 * Loaded with `--import` by scripts/run-tests.ts before each test file: every `import ... from 'uvu'`
 * then gets the reporting wrapper of ./uvu.ts instead of uvu itself.
 *
 * @module
 */
import { register } from 'node:module';

register('./hooks.ts', import.meta.url);
