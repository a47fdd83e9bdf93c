/**
 * The package build: every entry point of deno.json "exports" to dist/<name>.js (ESM) and .d.ts, and the
 * `converter-site-api` program (server/cli/main.ts) to dist/cli.js, sharing their chunks. Dependencies
 * stay external: they are the package's runtime dependencies.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';
import { buildEntries, readDenoExports } from './scripts/export-map.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const library = buildEntries(readDenoExports(root));

export default defineConfig({
  entry: { ...library, cli: 'server/cli/main.ts' },
  // The program has no types to publish; the library's entry points do.
  dts: { entry: library },
  format: ['esm'],
  clean: true,
  splitting: true,
  platform: 'neutral',
  target: 'es2022',
  outDir: 'dist',
});
