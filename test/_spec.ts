/**
 * Where the public API spec is: the copy in this repository (spec/public-api.md), which the tests read, and
 * the shared original beside the repository (../shared/spec/public-api.md), present only in the project's
 * own checkout. A clone that stands alone has the copy only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The copy the tests read. */
export const SPEC_COPY = fileURLToPath(new URL('../spec/public-api.md', import.meta.url));
/** The original, beside the repository. */
export const SHARED_SPEC = fileURLToPath(new URL('../../shared/spec/public-api.md', import.meta.url));

/** Why the copy cannot be compared with the original here, or null when it can. */
export function sharedSpecMissing(): string | null {
  return existsSync(SHARED_SPEC) ? null : `${SHARED_SPEC} is not beside this clone`;
}

/** The spec's text, from the copy. */
export function readSpec(): string {
  return readFileSync(SPEC_COPY, 'utf8');
}
