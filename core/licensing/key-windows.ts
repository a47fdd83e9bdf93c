/**
 * The update window of the keys an order holds (issue 56), as the server works it out for the signed
 * standing and the operator: each key's issue day, read from the key itself as the app reads it, plus the
 * window stored with it at the sale (core/licensing/update-window.ts has the rule).
 *
 * @module
 */
import type { Order } from '../ports/order-store.ts';
import type { Release } from '../ports/release-store.ts';
import { parseCompactKey, readCompactPayload } from './license-compact.ts';
import { fromBase64Url } from '../formats/base64url.ts';
import { updatesUntil, type WindowRelease } from './update-window.ts';
import { releasesOn, STABLE } from '../releases/channels.ts';

/** One key of an order and its window. */
export interface KeyWindow {
  product: 'standard' | 'plus';
  key: string;
  /** Its issue day, `YYYY-MM-DD`. */
  issuedOn: string;
  /** The window it was sold with, in days; null: lifetime. */
  windowDays: number | null;
  /** The last instant a release it covers may be published at, ms since the epoch; null: lifetime. */
  updatesUntil: number | null;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * The issue day a key this server stored says, read without checking its signature: only for keys read
 * from storage, which holds the keys this server signed. Null for a text of neither format (a key of an
 * embedder's own issuer).
 */
export function storedKeyIssueDay(key: string): string | null {
  const text = key.trim();
  if (text.startsWith('key/') || text.startsWith('sim/')) {
    try {
      const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(text.slice(4, text.lastIndexOf('.'))))) as { iat?: unknown };
      return typeof claims.iat === 'number' && Number.isFinite(claims.iat) ? dayOf(claims.iat * 1000) : null;
    } catch {
      return null;
    }
  }
  const parts = parseCompactKey(text);
  return parts ? (readCompactPayload(parts.payload, parts.payload[0]!)?.issuedOn ?? null) : null;
}

/**
 * The keys of an order with their windows, standard first. A key whose issue day cannot be read from it
 * (another issuer's format) is dated by the order's payment, else its creation.
 */
export function keyWindowsOf(order: Order): KeyWindow[] {
  if (order.keys === null) return [];
  const keys = order.keys;
  const fallbackDay = dayOf(order.paidAt ?? order.session.createdAt);
  return (['standard', 'plus'] as const).flatMap((product) => {
    const key = keys[product];
    if (key === null) return [];
    const issuedOn = storedKeyIssueDay(key) ?? fallbackDay;
    const windowDays = order.windows[product];
    return [{ product, key, issuedOn, windowDays, updatesUntil: updatesUntil(issuedOn, windowDays) }];
  });
}

/**
 * The releases the fallback line is found among: the live (not pulled) ones `channel` lists, its own and
 * those of every more stable channel (core/releases/channels.ts).
 *
 * @param channels This app's channels, the most stable first.
 * @param channel The app's channel: stable unless said.
 */
export function liveReleases(releases: readonly Release[], channels: readonly string[], channel: string = STABLE): WindowRelease[] {
  return releasesOn(channels, channel, releases).filter((release) => release.pulledAt === null);
}
