/**
 * The package's entry points: deno.json "exports" (subpath -> source file) is the one list; tsup builds
 * each source to dist/<name>.js + .d.ts, and package.json "exports" must point each subpath there, types
 * first. Adding an entry point (./postgres, ./pglite) means adding it to both maps; the check says when
 * they differ.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package.json export condition map. */
export type PackageExport = Record<string, string>;

/** The file name in dist/ of a subpath: "." is index, "./node" is node. */
export function distName(subpath: string): string {
  return subpath === '.' ? 'index' : subpath.replace(/^\.\//, '').replace(/\//g, '-');
}

/** What package.json "exports" must hold for a subpath. */
export function expectedPackageExport(subpath: string): PackageExport {
  const name = distName(subpath);
  return { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` };
}

/** deno.json "exports" of a project directory. */
export function readDenoExports(root: string): Record<string, string> {
  const deno = JSON.parse(readFileSync(join(root, 'deno.json'), 'utf8')) as { exports?: Record<string, string> };
  return deno.exports ?? {};
}

/** package.json "exports" of a project directory. */
export function readPackageExports(root: string): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
  return pkg.exports ?? {};
}

/** The tsup entries: dist name -> source file. */
export function buildEntries(denoExports: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(denoExports).map(([subpath, source]) => [distName(subpath), source]));
}

/**
 * Compares the two maps.
 *
 * @param packageExports package.json "exports".
 * @param denoExports deno.json "exports".
 * @returns One line per difference; empty when they agree.
 */
export function compareExportMaps(packageExports: Record<string, unknown>, denoExports: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const subpath of Object.keys(denoExports)) {
    if (!(subpath in packageExports)) problems.push(`package.json exports lacks "${subpath}" (deno.json has it)`);
  }
  for (const [subpath, value] of Object.entries(packageExports)) {
    if (subpath === './package.json') continue;
    if (!(subpath in denoExports)) {
      problems.push(`deno.json exports lacks "${subpath}" (package.json has it)`);
      continue;
    }
    const expected = expectedPackageExport(subpath);
    if (JSON.stringify(value) !== JSON.stringify(expected)) {
      problems.push(`package.json exports["${subpath}"] should be ${JSON.stringify(expected)} (types first), not ${JSON.stringify(value)}`);
    }
  }
  return problems;
}

/**
 * Checks that deno.json "imports" maps the package's own name to each exported source, as the docs'
 * examples import it (tsconfig "paths" does the same for Node and Bun by one wildcard).
 *
 * @param name The package name.
 * @param imports deno.json "imports".
 * @param denoExports deno.json "exports".
 * @returns One line per difference; empty when they agree.
 */
export function compareSelfImports(name: string, imports: Record<string, string>, denoExports: Record<string, string>): string[] {
  const problems: string[] = [];
  for (const [subpath, source] of Object.entries(denoExports)) {
    const specifier = subpath === '.' ? name : `${name}${subpath.slice(1)}`;
    if (imports[specifier] !== source) problems.push(`deno.json imports["${specifier}"] should be "${source}"`);
  }
  return problems;
}
