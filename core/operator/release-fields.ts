/**
 * What a release may hold, checked before anything is stored: a version an MSI can carry, https
 * addresses a header can carry, rollouts (basis points, or percents to two decimals), the installer's digest and size.
 *
 * @module
 */
import * as v from 'valibot';
import { RELEASE_VERSION } from '../schemas/version.ts';
import { asciiOnTheWire } from '../schemas/wire-address.ts';
import { CHANNEL_NAME, STABLE } from '../releases/channels.ts';

/**
 * A release version as an MSI ProductVersion carries it: major.minor.build with an optional fourth field
 * (which Windows Installer ignores), at most 255.255.65535(.65535), without leading zeros (one spelling
 * per version). A regex only, so that the operator's /openapi.json states it.
 */
export const ReleaseVersion = v.pipe(
  v.string(),
  v.regex(
    RELEASE_VERSION,
    'must be major.minor.build such as 2.5.0, at most 255.255.65535, with an optional fourth field: what an MSI ProductVersion holds',
  ),
);

/**
 * An https address that a Location or a header can carry: at most 2,048 characters, no whitespace and no
 * control characters anywhere (a CR would end the header), and ASCII on the wire: a non-ASCII character of
 * the path, query or fragment is stored percent-encoded (UTF-8), a non-ASCII host is refused
 * (core/schemas/wire-address.ts). What is stored is what is signed and sent.
 */
export const ReleaseUrl = v.pipe(
  v.string(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.regex(/^https:\/\/[^\s\u0000-\u001f\u007f-\u009f]+$/, 'must be an https:// URL with no whitespace or control characters'),
  v.url('must be an absolute URL'),
  ...asciiOnTheWire(),
  v.description(
    'An https:// address of at most 2,048 characters, without whitespace or control characters. Non-ASCII characters of the path, ' +
      'query and fragment are stored percent-encoded as UTF-8 (Konwerter-ł.msi becomes Konwerter-%C5%82.msi): the address ' +
      'answered here is the one served and signed. A non-ASCII host name is refused: give its xn-- form.',
  ),
);

/** A rollout in basis points: hundredths of a percent, 0-10000 (50 is 0.5 % of the clients). */
export const BasisPoints = v.pipe(
  v.number(),
  v.integer('must be a whole number of basis points (hundredths of a percent)'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(10_000, 'must be at most 10000 (every client)'),
);

/** Whether a percent is a whole number of basis points (at most two decimals, as far as a double tells). */
const inBasisPoints = (percent: number) => Math.abs(percent * 100 - Math.round(percent * 100)) < 1e-6;

/** A rollout in percent, 0-100, to at most two decimals (a basis point): 0.5 is 50 basis points. */
export const Percent = v.pipe(
  v.number(),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(100, 'must be at most 100'),
  v.check(inBasisPoints, 'must have at most two decimals (0.01 % is the smallest step, one basis point)'),
);

/** The installer's SHA-256 as 64 hex digits (kept in lower case by the operation). */
export const Sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 of the MSI as 64 hex digits'));

/** The installer's size in bytes. */
export const ByteSize = v.pipe(v.number(), v.safeInteger('must be a whole number of bytes'), v.minValue(1, 'must be at least 1 byte'));

/** The steps of a ramp, in either unit: 2 to 20 of them. */
const rampSteps = <T extends typeof BasisPoints | typeof Percent>(unit: T, description: string) =>
  v.optional(v.pipe(v.array(unit), v.minLength(2, 'must list at least two steps'), v.maxLength(20, 'must list at most 20 steps'), v.description(description)));

/**
 * A ramp plan as the API takes it: 2 to 20 rollouts, each above the one before, in basis points
 * (`basisPoints`) or in percent (`steps`, one of the two), and minutes per step.
 */
export const RampInputSchema = v.strictObject({
  basisPoints: rampSteps(
    BasisPoints,
    'The rollouts in order, in basis points, each above the one before, e.g. [50, 500, 2500, 10000]; the first equals the ' +
      'rollout of the publish. Give this or `steps`.',
  ),
  steps: rampSteps(
    Percent,
    'The rollouts in order, in percent to two decimals, each above the one before, e.g. [0.5, 5, 25, 100]; the first equals ' +
      'the rollout of the publish. Give this or `basisPoints`.',
  ),
  everyMinutes: v.pipe(
    v.number(),
    v.integer('must be a whole number of minutes'),
    v.minValue(1),
    v.maxValue(366 * 24 * 60),
    v.description('How long each step lasts, e.g. 1440 for one step a day.'),
  ),
  haltMinClients: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number'),
      v.minValue(1),
      v.maxValue(1_000_000),
      v.description("The halt rule's fewest distinct reporting clients for this release (the configured haltRule.minClients when absent)."),
    ),
  ),
  haltMinNetworks: v.optional(
    v.pipe(
      v.number(),
      v.integer('must be a whole number'),
      v.minValue(1),
      v.maxValue(1_000_000),
      v.description("The halt rule's fewest distinct networks (/24, /48) they report from (haltRule.minNetworks when absent)."),
    ),
  ),
});

/** A channel's name as a body gives it; whether it exists is the operation's to say (404 `channel_not_found`). */
export const ChannelName = v.pipe(
  v.string(),
  v.regex(CHANNEL_NAME, 'must be 1 to 32 of a-z, 0-9 and "-", such as stable or beta'),
  v.description('A release channel: stable, beta, or one the config file names (GET /releases lists them in `channels`).'),
);

export const PublishReleaseSchema = v.strictObject({
  version: ReleaseVersion,
  channel: v.optional(ChannelName, STABLE),
  msiUrl: ReleaseUrl,
  notesUrl: v.optional(v.nullable(ReleaseUrl), null),
  rolloutBasisPoints: v.optional(
    v.pipe(BasisPoints, v.description('The share of clients offered it (or a newer one), in basis points: 50 is 0.5 %. Give this or rolloutPercent.')),
  ),
  rolloutPercent: v.optional(
    v.pipe(Percent, v.description('The same share in percent, to two decimals (0.5 is 50 basis points). Give this or rolloutBasisPoints.')),
  ),
  sha256: v.optional(v.nullable(Sha256Hex), null),
  size: v.optional(v.nullable(ByteSize), null),
  critical: v.optional(v.boolean(), false),
  ramp: v.optional(v.nullable(RampInputSchema), null),
});

/** A promotion: the channel, and optionally the rollout (or ramp) it starts there with; without one it keeps its own. */
export const PromoteSchema = v.strictObject({
  channel: ChannelName,
  rolloutBasisPoints: v.optional(
    v.pipe(BasisPoints, v.description('The rollout on the new channel, in basis points; the release keeps its own when left out.')),
  ),
  rolloutPercent: v.optional(v.pipe(Percent, v.description('The same in percent, to two decimals.'))),
  ramp: v.optional(v.nullable(RampInputSchema), null),
});

export const RolloutSchema = v.strictObject({
  rolloutBasisPoints: v.optional(v.pipe(BasisPoints, v.description('The new rollout in basis points (50 is 0.5 %). Give this or rolloutPercent.'))),
  rolloutPercent: v.optional(v.pipe(Percent, v.description('The new rollout in percent, to two decimals. Give this or rolloutBasisPoints.'))),
});
