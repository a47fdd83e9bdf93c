/**
 * Module resolution hook: the bare specifier `uvu` resolves to the reporting wrapper, except inside the
 * wrapper itself, which imports the real uvu. In the unit tier, PGlite (a database) cannot be imported.
 *
 * @module
 */
const WRAPPER = new URL('./uvu.ts', import.meta.url).href;

interface ResolveContext {
  parentURL?: string | undefined;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<unknown>;

let unit = false;

export function initialize(data: { unit: boolean } | undefined): void {
  unit = data?.unit === true;
}

export function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<unknown> {
  if (unit && specifier.startsWith('@electric-sql/pglite')) {
    const where = `${specifier}, imported by ${context.parentURL}`;
    throw new Error(`the unit tier allows no database (${where}): place this file in the storage or e2e tier (scripts/test-tiers.ts)`);
  }
  if (specifier === 'uvu' && context.parentURL !== WRAPPER) return next(WRAPPER, context);
  return next(specifier, context);
}
