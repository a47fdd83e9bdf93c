/**
 * The package build: every entry point of deno.json "exports" to dist/<name>.js (ESM) and .d.ts.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { buildEntries, readDenoExports } from './scripts/export-map.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  entry: buildEntries(readDenoExports(root)),
  format: ['esm'],
  dts: true,
  clean: true,
  splitting: true,
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
});
