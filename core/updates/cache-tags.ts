/**
 * The cache tag of the update files (issue 55): every file answer of a channel (200, 304, 302) names its
 * channel in `Cache-Tag` (Cloudflare) and `Surrogate-Key` (Fastly, and Varnish through the VCL in
 * docs/caches/varnish-updates.vcl), so that one purge drops every answer of the channel a cache keeps.
 *
 * One tag per channel, not one per file: after a change only timestamp.json (and root.json, after a new
 * root) serve other bytes under the same name, and the versioned files a purge drops with them are asked
 * again once per cache, at most a few requests a change.
 *
 * @module
 */

/** The tag of a channel's file answers: `updates:<channel>` (a colon, which no channel name holds). */
export const channelTag = (channel: string): string => `updates:${channel}`;

/** The headers that tag a channel's file answer. */
export function cacheTagHeaders(channel: string): { 'cache-tag': string; 'surrogate-key': string } {
  const tag = channelTag(channel);
  return { 'cache-tag': tag, 'surrogate-key': tag };
}
