/**
 * Fails when package.json "exports" and deno.json "exports" name different entry points (hono's
 * validate-exports). Run by `npm run build` before tsup and by the test suite.
 *
 * Usage: node --import tsx scripts/check-exports.ts
 */
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { compareExportMaps, compareSelfImports, readDenoExports, readPackageExports } from './export-map.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const deno = JSON.parse(readFileSync(`${root}deno.json`, 'utf8')) as { imports?: Record<string, string> };
const problems = [
  ...compareExportMaps(readPackageExports(root), readDenoExports(root)),
  ...compareSelfImports('converter-site-api', deno.imports ?? {}, readDenoExports(root)),
];
for (const problem of problems) process.stderr.write(`exports: ${problem}\n`);
process.exit(problems.length === 0 ? 0 : 1);
