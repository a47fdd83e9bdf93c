/**
 * Purges Fastly by surrogate key (issue 55), as its API documents the batch "Purge multiple surrogate key
 * tags": `POST /service/{service_id}/purge` with `{"surrogate_keys": [...]}` and an API token allowed
 * purge_select in `Fastly-Key`. The purge is soft (`Fastly-Soft-Purge: 1`): the copies turn stale rather
 * than gone, so the next request fetches a new one, and a cache told to serve stale on an origin error
 * still can. A 200 answers each key's purge id; anything else is a failure.
 *
 * @module
 */
import type { CachePurge } from '../../core/ports/cache-purge.ts';
import { baseUrl, jsonOf, refused, send } from './http.ts';

/** Fastly's API, which `apiBase` replaces in tests. */
export const FASTLY_API_BASE = 'https://api.fastly.com';

export interface FastlyPurgeOptions {
  /** The service's id. */
  serviceId: string;
  /** An API token with the purge_select scope. */
  token: string;
  /** FASTLY_API_BASE by default. */
  apiBase?: string;
}

/** The purge port over a Fastly service. */
export function createFastlyPurge(options: FastlyPurgeOptions): CachePurge {
  const url = `${baseUrl(options.apiBase ?? FASTLY_API_BASE, 'fastly purge')}/service/${encodeURIComponent(options.serviceId)}/purge`;
  const what = 'fastly purge';
  return {
    name: 'fastly',
    async purge(tags, signal) {
      const { response, text } = await send(url, {
        method: 'POST',
        headers: { 'fastly-key': options.token, 'fastly-soft-purge': '1', accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ surrogate_keys: tags }),
        signal,
      }, what);
      if (response.status === 200) return;
      const message = jsonOf(text) as { msg?: unknown; detail?: unknown } | null;
      throw refused(what, response, message?.msg ? [message.msg, message.detail].filter(Boolean).join(': ') : text.trim());
    },
  };
}
