/**
 * The size a web page pays for the client: esbuild bundles two pages (the whole client, and one bound to
 * getPricing only), minified, and gzips them. docs/client.md gives the numbers; test/client/size.test.ts
 * holds the docs to them.
 *
 * Usage: node --import tsx scripts/client-size.ts
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The pages measured: what each imports and calls. */
export const PAGES = {
  whole: `import { createClient } from './client/index.ts';
const api = createClient({ baseUrl: location.origin });
globalThis.api = api;`,
  'pricing only': `import { createClientFor, getPricingEndpoint } from './client/index.ts';
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
 * Bundles one page as a browser would get it.
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
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { minified: Buffer.byteLength(code), gzipped: gzipSync(code).length, code };
}

/** Every page's size. */
export async function measureClient(): Promise<Record<keyof typeof PAGES, PageSize>> {
  const [whole, pricing] = await Promise.all([bundlePage(PAGES.whole), bundlePage(PAGES['pricing only'])]);
  return { whole, 'pricing only': pricing };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await measureClient();
  process.stdout.write('| Page | Minified | Minified + gzip |\n|---|---|---|\n');
  for (const [page, size] of Object.entries(sizes)) {
    process.stdout.write(`| ${page} | ${(size.minified / 1024).toFixed(1)} KiB | ${(size.gzipped / 1024).toFixed(1)} KiB |\n`);
  }
}
