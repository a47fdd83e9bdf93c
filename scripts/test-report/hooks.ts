/**
 * Module resolution hook: the bare specifier `uvu` resolves to the reporting wrapper, except inside the
 * wrapper itself, which imports the real uvu.
 *
 * @module
 */
const WRAPPER = new URL('./uvu.ts', import.meta.url).href;

interface ResolveContext {
  parentURL?: string | undefined;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<unknown>;

export function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<unknown> {
  if (specifier === 'uvu' && context.parentURL !== WRAPPER) return next(WRAPPER, context);
  return next(specifier, context);
}
