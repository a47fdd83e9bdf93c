/**
 * Which versions a license may install, and why (issue 56): the operator's answer to a buyer. By one key
 * (that key alone), one order (its keys together, as a bundle's installation holds both) or a buyer's email
 * (every key of the address's paid orders, as one installation holding them all): each key's window, the
 * installation's (the latest of the keys that stand), and every stored release with its verdict under the
 * rule of core/licensing/update-window.ts and the reason in words.
 *
 * @module
 */
import * as v from 'valibot';
import { ApiError } from '../http/errors.ts';
import { issuedForm } from '../operations/license-validate.ts';
import { type KeyWindow, keyWindowsOf, liveReleases } from '../licensing/key-windows.ts';
import { latestUpdatesUntil, releaseVerdict, type UpdateTerms, updateTerms } from '../licensing/update-window.ts';
import { isRevoked, revocationCause } from '../ports/order-state.ts';
import type { Order } from '../ports/order-store.ts';
import type { Release } from '../ports/release-store.ts';
import { byVersionDescending } from '../releases/rollout-rule.ts';
import { releasesOn, STABLE } from '../releases/channels.ts';
import { knownChannel } from './known-channel.ts';
import type { OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { isoOrNull, IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';
import { OrdersQuerySchema } from './orders.ts';

/** How many paid orders of one email are read. */
const MAX_ORDERS = 500;

export const LicenseUpdatesQuerySchema = v.strictObject({
  key: OrdersQuerySchema.entries.key,
  email: OrdersQuerySchema.entries.email,
  session: OrdersQuerySchema.entries.session,
  channel: v.optional(v.pipe(v.string(), v.description("The app's release channel, stable by default: its releases and those of every more stable channel."))),
});

const Verdict = v.picklist(['covered', 'fallback_bug_fix', 'paid_upgrade', 'revoked']);

/** What GET /licenses/updates answers. */
export const LicenseUpdatesSchema = v.object({
  channel: v.pipe(v.string(), v.description('The channel whose releases are judged.')),
  licenses: v.pipe(v.picklist(['valid', 'revoked']), v.description('valid: at least one of the keys stands; revoked: none does, and no release is covered.')),
  keys: v.array(v.object({
    session: v.string(),
    product: v.picklist(['standard', 'plus']),
    key: v.string(),
    state: v.picklist(['valid', 'revoked']),
    issuedOn: v.pipe(v.string(), v.description('The issue day the key carries, YYYY-MM-DD (UTC).')),
    windowDays: v.pipe(v.nullable(v.number()), v.description('The update window it was sold with, in days; null: lifetime.')),
    updatesUntil: v.pipe(v.nullable(IsoTime), v.description('Its issue day at 00:00 UTC plus windowDays; null: lifetime.')),
  })),
  updatesUntil: v.pipe(
    v.nullable(IsoTime),
    v.description('The latest window of the keys that stand (of all of them when none does), as one installation holding them has it; null: lifetime.'),
  ),
  fallbackLine: v.pipe(
    v.nullable(v.string()),
    v.description('The major.minor line of the newest live release covered; null for lifetime, or when no live release is covered.'),
  ),
  baseline: v.pipe(v.string(), v.description("The version file's version: covered by every license.")),
  releases: v.array(v.object({
    version: v.string(),
    publishedAt: IsoTime,
    pulled: v.boolean(),
    verdict: v.pipe(
      Verdict,
      v.description(
        'covered (lifetime, within the window, or the baseline), fallback_bug_fix (a bug fix of the fallback line published after the window), ' +
          'paid_upgrade, or revoked (no key stands).',
      ),
    ),
    reason: v.string(),
  })),
});
export type LicenseUpdates = v.InferOutput<typeof LicenseUpdatesSchema>;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The orders the query names, each with the keys it asks about (a key query: that key alone). */
async function ordersOf(context: OperatorContext, query: v.InferOutput<typeof LicenseUpdatesQuerySchema>): Promise<{ order: Order; only?: string }[]> {
  const given = [query.key, query.email, query.session].filter((value) => value !== undefined).length;
  if (given !== 1) throw new ApiError('invalid_request', 'Give one of the query parameters "key", "email" or "session".');
  if (query.key !== undefined) {
    const key = issuedForm(query.key);
    const order = await context.storage.orders.ofLicenseKey(key);
    if (order === null) throw new OperatorError('license_not_found', 'No license key of a paid order is this key (spaces and line breaks in it are ignored).');
    return [{ order, only: key }];
  }
  if (query.session !== undefined) {
    const order = await context.storage.orders.get(query.session);
    if (order?.keys == null) throw new OperatorError('license_not_found', `No license key is held by checkout session ${JSON.stringify(query.session)}.`);
    return [{ order }];
  }
  const orders = (await context.storage.orders.find({ email: query.email, limit: MAX_ORDERS })).filter((order) => order.keys !== null);
  if (orders.length === 0) throw new OperatorError('license_not_found', `No license key is held by a paid order of ${JSON.stringify(query.email)}.`);
  return orders.map((order) => ({ order }));
}

/** Why a release has its verdict, in words. */
function reasonOf(release: Release, terms: UpdateTerms, revoked: string | null): string {
  const pulled = release.pulledAt === null ? '' : '; pulled, so no app is offered it';
  if (revoked !== null) return `the licenses are revoked (${revoked}): no release is covered`;
  const { basis } = releaseVerdict(release, terms);
  const until = terms.updatesUntil === null ? '' : day(terms.updatesUntil);
  const published = `published ${day(release.publishedAt)}`;
  const reasons = {
    lifetime: 'sold with lifetime updates',
    window: `${published}, within the window (updates until ${until})`,
    baseline: 'the baseline (the version file): covered by every license',
    fallback_line:
      `${published}, after the window (until ${until}), a bug fix of ${terms.fallbackLine}, the line of ${terms.newestCovered}, the newest release covered`,
    after_window: `${published}, after the window (until ${until}), ${
      terms.fallbackLine === null ? 'with no live release within it, so no fallback line' : `not of the fallback line ${terms.fallbackLine}`
    }: a paid upgrade`,
  };
  return reasons[basis] + pulled;
}

export const licenseUpdates = defineOperation({
  operationId: 'licenseUpdates',
  method: 'GET',
  path: '/licenses/updates',
  summary: "Which versions a license may install, and why: by key (that key; spaces and line breaks ignored), session (the order's keys together) " +
    "or email (every key of the buyer's paid orders, as one installation holding them all). Each key's update window, the installation's " +
    '(the latest of the keys that stand), and every stored release the channel lists (stable unless `channel` is given), highest first, ' +
    'with its verdict and reason.',
  query: LicenseUpdatesQuerySchema,
  output: LicenseUpdatesSchema,
  status: 200,
  errors: ['invalid_query', 'license_not_found', 'channel_not_found'],
  async run(context, { query }): Promise<LicenseUpdates> {
    const channel = query.channel ?? STABLE;
    const channels = knownChannel(context, channel);
    const found = await ordersOf(context, query);
    const keys: (KeyWindow & { session: string; state: 'valid' | 'revoked'; cause: string | null })[] = found.flatMap(({ order, only }) =>
      keyWindowsOf(order)
        .filter((key) => only === undefined || key.key === only)
        .map((key) => ({ ...key, session: order.session.id, state: isRevoked(order.standing) ? 'revoked' : 'valid', cause: revocationCause(order.standing) }))
    );
    const standing = keys.filter((key) => key.state === 'valid');
    const counted = standing.length > 0 ? standing : keys;
    const stored = releasesOn(channels, channel, await context.storage.releases.listReleases()).sort(byVersionDescending);
    const baseline = (await context.releases.baseline()).version;
    const terms = updateTerms(latestUpdatesUntil(counted.map((key) => key.updatesUntil)), liveReleases(stored, channels, channel), baseline);
    const revoked = standing.length > 0 ? null : (keys[0]?.cause ?? 'revoked');
    return {
      channel,
      licenses: standing.length > 0 ? 'valid' : 'revoked',
      keys: keys.map(({ session, product, key, state, issuedOn, windowDays, updatesUntil }) => ({
        session,
        product,
        key,
        state,
        issuedOn,
        windowDays,
        updatesUntil: isoOrNull(updatesUntil),
      })),
      updatesUntil: isoOrNull(terms.updatesUntil),
      fallbackLine: terms.fallbackLine,
      baseline,
      releases: stored.map((release) => ({
        version: release.version,
        publishedAt: new Date(release.publishedAt).toISOString(),
        pulled: release.pulledAt !== null,
        verdict: revoked === null ? releaseVerdict(release, terms).verdict : ('revoked' as const),
        reason: reasonOf(release, terms, revoked),
      })),
    };
  },
});
