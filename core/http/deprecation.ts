/**
 * Deprecation notices for the unversioned /api aliases: Deprecation (RFC 9745), Sunset (RFC 8594) and a
 * Link to the successor /api/v1 path.
 *
 * @module
 */

/** When the aliases were (or will be) deprecated and when they go away, both as epoch milliseconds. */
export interface AliasDeprecation {
  deprecatedAt: number;
  sunsetAt: number;
}

/**
 * The notice headers for one alias path.
 *
 * @param deprecation The operator's dates.
 * @param successor The /api/v1 path that replaces the alias.
 */
export function deprecationHeaders(deprecation: AliasDeprecation, successor: string): Record<string, string> {
  return {
    deprecation: `@${Math.floor(deprecation.deprecatedAt / 1000)}`,
    sunset: new Date(deprecation.sunsetAt).toUTCString(),
    link: `<${successor}>; rel="successor-version"`,
  };
}
