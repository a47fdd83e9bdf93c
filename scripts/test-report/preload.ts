/**
 * Loaded with `--import` by scripts/run-tests.ts before each test file: every `import ... from 'uvu'`
 * then gets the reporting wrapper of ./uvu.ts instead of uvu itself. In the unit tier (TEST_TIER=unit)
 * it also loads ./unit-guard.ts, and the hooks refuse PGlite.
 *
 * @module
 */
import { register } from 'node:module';

const unit = process.env['TEST_TIER'] === 'unit';
register('./hooks.ts', import.meta.url, { data: { unit } });
if (unit) await import('./unit-guard.ts');
