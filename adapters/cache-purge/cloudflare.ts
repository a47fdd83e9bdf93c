/**
 * Purges Cloudflare's cache by cache tag (issue 55), as its API documents "Purge Cached Content by Tag":
 * `POST /zones/{zone_id}/purge_cache` with `{"tags": [...]}` and an API token allowed Cache Purge for the
 * zone (`Authorization: Bearer`). The answer is `{success, errors: [{code, message}], messages, result}`:
 * anything but a 200 with `success: true` is a failure.
 *
 * @module
 */
import type { CachePurge } from '../../core/ports/cache-purge.ts';
import { baseUrl, jsonOf, refused, send } from './http.ts';

/** Cloudflare's API, which `apiBase` replaces in tests. */
export const CLOUDFLARE_API_BASE = 'https://api.cloudflare.com/client/v4';

export interface CloudflarePurgeOptions {
  /** The zone's id (the dashboard's Overview page, "Zone ID"). */
  zoneId: string;
  /** An API token with the Zone > Cache Purge permission. */
  token: string;
  /** CLOUDFLARE_API_BASE by default. */
  apiBase?: string;
}

interface CloudflareAnswer {
  success?: unknown;
  errors?: { code?: unknown; message?: unknown }[];
}

/** The purge port over a Cloudflare zone. */
export function createCloudflarePurge(options: CloudflarePurgeOptions): CachePurge {
  const url = `${baseUrl(options.apiBase ?? CLOUDFLARE_API_BASE, 'cloudflare purge')}/zones/${encodeURIComponent(options.zoneId)}/purge_cache`;
  const what = 'cloudflare purge_cache';
  return {
    name: 'cloudflare',
    async purge(tags, signal) {
      const { response, text } = await send(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tags }),
        signal,
      }, what);
      const answer = jsonOf(text) as CloudflareAnswer | null;
      if (response.status === 200 && answer?.success === true) return;
      const errors = Array.isArray(answer?.errors) ? answer.errors.map((error) => `${String(error.code)} ${String(error.message)}`).join('; ') : text.trim();
      throw refused(what, response, errors);
    },
  };
}
