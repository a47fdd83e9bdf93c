/**
 * The cache purge port (issue 55): tells the caches in front of the update files to drop what they keep
 * under some tags, so that a new timestamp reaches clients before the max-age of the copy they hold.
 * Adapters: Varnish (a BAN), Cloudflare (purge by cache tag), Fastly (purge by surrogate key), in
 * adapters/cache-purge/.
 *
 * @module
 */

/** Drops the cached answers tagged with any of `tags` (`Cache-Tag` and `Surrogate-Key` name them). */
export interface CachePurge {
  /** The adapter's name for logs and the start line: `varnish`, `cloudflare`, `fastly`. */
  readonly name: string;
  /**
   * Purges every cached answer that carries one of `tags`; resolves once the cache accepted it, rejects with
   * the reason otherwise (an error answer, no answer, a refusal).
   *
   * @param tags The tags to purge, each of printable ASCII without spaces or commas.
   * @param signal Aborts the attempt at its deadline.
   */
  purge(tags: readonly string[], signal: AbortSignal): Promise<void>;
}
