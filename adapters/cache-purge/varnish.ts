/**
 * Purges Varnish by a BAN (issue 55): `BAN /` with the tags in a `Surrogate-Key` request header, sent to
 * each Varnish, which bans every object whose `Surrogate-Key` names one of them. The VCL that takes it,
 * and refuses it from any address outside its ACL, is docs/caches/varnish-updates.vcl.
 *
 * @module
 */
import type { CachePurge } from '../../core/ports/cache-purge.ts';
import { baseUrl, refused, send } from './http.ts';

export interface VarnishPurgeOptions {
  /** Each Varnish to ban in, e.g. `http://10.0.0.5:6081` (every cache of a cluster keeps its own copies). */
  urls: readonly string[];
}

/** The purge port over one or more Varnish caches: every one must take the BAN. */
export function createVarnishPurge(options: VarnishPurgeOptions): CachePurge {
  const urls = options.urls.map((url) => `${baseUrl(url, 'varnish purge')}/`);
  if (urls.length === 0) throw new Error('varnish purge: no Varnish named');
  return {
    name: 'varnish',
    async purge(tags, signal) {
      await Promise.all(urls.map(async (url) => {
        const what = `varnish BAN at ${new URL(url).host}`;
        const { response, text } = await send(url, { method: 'BAN', headers: { 'surrogate-key': tags.join(' ') }, signal }, what);
        if (response.status !== 200) throw refused(what, response, text.trim());
      }));
    },
  };
}
