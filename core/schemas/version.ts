/**
 * The latest desktop version (GET /api/v1/version).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { Link } from './link.ts';

const BYTE = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const WORD = '(6553[0-5]|655[0-2]\\d|65[0-4]\\d\\d|6[0-4]\\d{3}|[1-5]\\d{4}|[1-9]\\d{0,3}|0)';

/**
 * The grammar of a release version (an MSI ProductVersion): major.minor.build with an optional fourth field,
 * at most 255.255.65535(.65535), without leading zeros, so that each version has one spelling. The operator
 * publishes releases in it (core/operator/release-fields.ts) and the changelog's since and before are read
 * with it.
 */
export const RELEASE_VERSION: RegExp = new RegExp(`^${BYTE}\\.${BYTE}\\.${WORD}(\\.${WORD})?$`);

/** A desktop version: dotted numbers with an optional pre-release tag, e.g. "2.4.1" or "2.5.0-beta.1". */
export const VersionString: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(/^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.-]{1,32})?$/, 'must be a version such as 2.4.1'),
);

/** The latest desktop version (GET /api/v1/version). */
export interface Version {
  /** Current desktop app version, e.g. "2.4.1". */
  version: string;
  /** Canonical MSI download URL for update checks. */
  downloadUrl: string;
}
const version = v.strictObject({
  version: v.pipe(VersionString, v.description('Current desktop app version, from the product version file.')),
  downloadUrl: v.pipe(Link, v.description('Canonical MSI download URL for update checks.')),
});
type _Version = Assert<Equal<v.InferOutput<typeof version>, Version>>;
export const VersionSchema: v.GenericSchema<Version> = version;
