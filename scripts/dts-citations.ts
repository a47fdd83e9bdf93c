/**
 * The package's .d.ts comments cite the repository's files the way the docs do (README.md): a file the
 * package does not ship (`core/ports/change.ts`, `test/core/changes-counted.test.ts`) by its repository URL,
 * so that a reader of node_modules/converter-site-api/dist can open it. The sources keep the short path,
 * which is what a reader of the repository wants. npm runs this after `npm run build` (the `postbuild` script),
 * so `npm run build -- --no-dts` (the Dockerfile's) still hands its flag to tsup; without .d.ts it changes nothing.
 * test/package/shipped-citations.test.ts checks the packed files, test/scripts/dts-citations.test.ts this rewrite.
 *
 * Usage: node --import tsx scripts/dts-citations.ts [dist]
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the repository's files are read on GitHub. */
export const REPOSITORY = 'https://github.com/converter-site/converter-site-api';

/** The repository's folders a comment may cite a file of. */
const FOLDERS = ['adapters', 'bench', 'client', 'core', 'deploy', 'docs', 'example', 'scripts', 'server', 'spec', 'test'];

/**
 * A path into one of those folders as a comment writes it: not inside a URL, a relative specifier or a
 * quoted module name, and ending before trailing punctuation.
 */
export const CITED_PATH = new RegExp(`(?<![\\w./:@'"-])((?:${FOLDERS.join('|')})/[\\w./-]*[\\w/])`, 'g');

/** What the package ships of the repository's files (package.json "files"), besides dist/. */
export function isShipped(path: string): boolean {
  return /^(README\.md|LICENSE|docs\/[^/]+\.md|docs\/vectors\/[^/]+\.json|example\/.+)$/.test(path.replace(/\/$/, ''));
}

/**
 * A text with every citation of an unshipped repository file or folder replaced by its repository URL.
 * A path that the repository does not hold is left as written (the packed-files test names it).
 *
 * @param text A .d.ts file.
 * @param kindOf Whether the repository holds the path, as a file or a folder.
 */
export function citeRepository(text: string, kindOf: (path: string) => 'file' | 'folder' | null): string {
  return text.replace(CITED_PATH, (path: string) => {
    const kind = kindOf(path.replace(/\/$/, ''));
    if (kind === null || isShipped(path)) return path;
    return `${REPOSITORY}/${kind === 'file' ? 'blob' : 'tree'}/main/${path.replace(/\/$/, '')}`;
  });
}

/** Rewrites every .d.ts file of `dist` in place; returns how many citations it changed. */
export function citeRepositoryInDist(root: string, dist: string): number {
  const kindOf = (path: string) => {
    const full = join(root, path);
    if (!existsSync(full)) return null;
    return statSync(full).isDirectory() ? 'folder' : 'file';
  };
  let changed = 0;
  if (!existsSync(dist)) return 0;
  for (const name of readdirSync(dist).filter((file) => file.endsWith('.d.ts'))) {
    const path = join(dist, name);
    const before = readFileSync(path, 'utf8');
    const after = citeRepository(before, kindOf);
    if (after === before) continue;
    changed += after.split(`${REPOSITORY}/`).length - before.split(`${REPOSITORY}/`).length;
    writeFileSync(path, after);
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const changed = citeRepositoryInDist(root, join(root, process.argv[2] ?? 'dist'));
  process.stdout.write(`dist/*.d.ts: ${changed} citations of unshipped files now name their repository URL\n`);
}
