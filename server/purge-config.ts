/**
 * The cache purge of the update files (issue 55, docs/operating.md "Purging the caches"): the config file's
 * `updates.purge` says which cache to purge and where, `UPDATES_PURGE_TOKEN` in the environment holds the
 * API token of Cloudflare or Fastly (a secret, as SMTP_URL and STRIPE_SECRET_KEY are). Varnish takes none:
 * the ACL of its VCL decides who may purge. No node:* here: the Worker bundles the file schema.
 *
 * @module
 */
import * as v from 'valibot';
import { createCloudflarePurge, createFastlyPurge, createVarnishPurge } from '../adapters/cache-purge/index.ts';
import type { CachePurge } from '../core/ports/cache-purge.ts';
import { ConfigError } from './config-error.ts';

const HttpUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:\/\//i, 'must be an http(s) URL'));

/** The config file's `updates.purge`: one of three caches, told apart by `cdn`. */
export const PurgeFileSchema = v.variant('cdn', [
  v.strictObject({
    cdn: v.literal('varnish'),
    /** Each Varnish to send the BAN to. */
    urls: v.pipe(v.array(HttpUrl), v.minLength(1, 'must name at least one Varnish'), v.maxLength(64, 'must name at most 64 caches')),
  }),
  v.strictObject({
    cdn: v.literal('cloudflare'),
    zoneId: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, "must be the zone's id: 32 hexadecimal digits (the dashboard's Overview, Zone ID)")),
    /** Cloudflare's API by default; another address for a stand-in. */
    apiBase: v.optional(HttpUrl),
  }),
  v.strictObject({
    cdn: v.literal('fastly'),
    serviceId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,64}$/, "must be the service's id: letters and digits")),
    /** Fastly's API by default; another address for a stand-in. */
    apiBase: v.optional(HttpUrl),
  }),
], 'must be an object whose "cdn" is varnish, cloudflare or fastly');

export type PurgeFile = v.InferOutput<typeof PurgeFileSchema>;

/** The purge the server starts with: the file's section, with the token for the two that need one. */
export type PurgeSettings = PurgeFile & { token: string | null };

/**
 * The purge settings, or null when none is configured.
 *
 * @param file The config file's `updates.purge`.
 * @param token UPDATES_PURGE_TOKEN.
 * @param label The config file, for messages.
 * @throws ConfigError naming the field or the variable.
 */
export function purgeSettings(file: PurgeFile | undefined, token: string | undefined, label: string): PurgeSettings | null {
  const given = token?.trim() || null;
  if (file === undefined) {
    if (given !== null) throw new ConfigError(`UPDATES_PURGE_TOKEN is set but ${label} has no "updates.purge" (cloudflare or fastly) to use it`);
    return null;
  }
  if (file.cdn === 'varnish') {
    if (given !== null) {
      throw new ConfigError(`UPDATES_PURGE_TOKEN is set but ${label}: "updates.purge.cdn" is varnish, which takes none (its VCL's ACL says who may purge)`);
    }
    return { ...file, token: null };
  }
  if (given === null) {
    const scope = file.cdn === 'cloudflare' ? 'a Cloudflare API token with Zone > Cache Purge' : 'a Fastly API token with purge_select';
    throw new ConfigError(`${label}: "updates.purge.cdn" is ${file.cdn}, which needs UPDATES_PURGE_TOKEN (${scope})`);
  }
  return { ...file, token: given };
}

/** The purge port of the settings. */
export function openCachePurge(settings: PurgeSettings): CachePurge {
  switch (settings.cdn) {
    case 'varnish':
      return createVarnishPurge({ urls: settings.urls });
    case 'cloudflare':
      return createCloudflarePurge({ zoneId: settings.zoneId, token: settings.token!, ...(settings.apiBase ? { apiBase: settings.apiBase } : {}) });
    case 'fastly':
      return createFastlyPurge({ serviceId: settings.serviceId, token: settings.token!, ...(settings.apiBase ? { apiBase: settings.apiBase } : {}) });
  }
}

/** What the start log says of the purge: which one, and where (never the token). */
export function describePurge(settings: PurgeSettings | null): Record<string, unknown> {
  if (settings === null) return { purge: 'none' };
  if (settings.cdn === 'varnish') return { purge: 'varnish', urls: settings.urls };
  if (settings.cdn === 'cloudflare') {
    return { purge: 'cloudflare', zoneId: settings.zoneId, apiBase: settings.apiBase ?? 'https://api.cloudflare.com/client/v4' };
  }
  return { purge: 'fastly', serviceId: settings.serviceId, apiBase: settings.apiBase ?? 'https://api.fastly.com' };
}
