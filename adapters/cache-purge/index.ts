/**
 * The cache purge adapters (issue 55, core/ports/cache-purge.ts): Varnish by a BAN, Cloudflare by cache
 * tag, Fastly by surrogate key. Each sends one request per purge with `fetch`, so each runs wherever the
 * app does.
 *
 * @module
 */
export { createVarnishPurge, type VarnishPurgeOptions } from './varnish.ts';
export { CLOUDFLARE_API_BASE, type CloudflarePurgeOptions, createCloudflarePurge } from './cloudflare.ts';
export { createFastlyPurge, FASTLY_API_BASE, type FastlyPurgeOptions } from './fastly.ts';
export type { CachePurge } from '../../core/ports/cache-purge.ts';
