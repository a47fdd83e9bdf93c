/**
 * Fails when package.json "exports" and deno.json "exports" name different entry points (hono's
 * validate-exports). Run by `npm run build` before tsup and by the test suite.
 *
 * Usage: node --import tsx scripts/check-exports.ts
 */
import { fileURLToPath } from 'node:url';
import { compareExportMaps, readDenoExports, readPackageExports } from './export-map.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const problems = compareExportMaps(readPackageExports(root), readDenoExports(root));
for (const problem of problems) process.stderr.write(`exports: ${problem}\n`);
process.exit(problems.length === 0 ? 0 : 1);
