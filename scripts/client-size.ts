/**
 * The size a web page pays for the client, measured as a user builds it: the packed package (`npm pack`)
 * installed in an empty project, each page bundled with esbuild `--bundle --minify --format=esm`, then
 * gzipped. Two pages: the whole client, and one bound to getPricing only. docs/client.md gives the
 * numbers; test/client/size.test.ts holds the docs to them.
 *
 * Usage: node --import tsx scripts/client-size.ts   (packs the package first; takes a minute or two)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { installProject, packedTarball } from '../test/package/_packed.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The pages measured: what each imports and calls. */
export const PAGES = {
  whole: `import { createClient } from 'converter-site-api/client';
const api = createClient({ baseUrl: location.origin });
globalThis.api = api;`,
  'pricing only': `import { createClientFor, getPricingEndpoint } from 'converter-site-api/client';
const api = createClientFor([getPricingEndpoint], { baseUrl: location.origin });
api.getPricing().then((pricing) => console.log(pricing.licensePriceDisplay));`,
} as const;

/** One page's bundle. */
export interface PageSize {
  minified: number;
  gzipped: number;
  code: string;
}

/**
 * Bundles one page as `esbuild page.js --bundle --minify --format=esm` does.
 *
 * @param source The page's module.
 * @param resolveDir Where its imports are resolved from; the repository by default.
 */
export async function bundlePage(source: string, resolveDir = root): Promise<PageSize> {
  const result = await build({
    stdin: { contents: source, resolveDir, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { minified: Buffer.byteLength(code), gzipped: gzipSync(code).length, code };
}

/** Every page's size, bundled from the packed package installed in an empty project. */
export async function measureClient(): Promise<Record<keyof typeof PAGES, PageSize>> {
  const dir = mkdtempSync(join(tmpdir(), 'client-size-'));
  try {
    const project = join(dir, 'page');
    installProject(project, packedTarball());
    const [whole, pricing] = await Promise.all([bundlePage(PAGES.whole, project), bundlePage(PAGES['pricing only'], project)]);
    return { whole, 'pricing only': pricing };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await measureClient();
  process.stdout.write('| Page | Minified | Minified + gzip |\n|---|---|---|\n');
  for (const [page, size] of Object.entries(sizes)) {
    process.stdout.write(`| ${page} | ${(size.minified / 1024).toFixed(1)} KiB | ${(size.gzipped / 1024).toFixed(1)} KiB |\n`);
  }
}
