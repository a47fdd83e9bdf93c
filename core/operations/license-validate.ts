/**
 * POST /api/v1/licenses/validate (an addition to the spec): whether a license key still stands, signed like
 * the update answers (core/releases/answer-signature.ts), so that the desktop app can trust the answer and
 * run offline until its lease ends (docs/licensing.md "Re-checking a key's standing").
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { readJsonObject } from '../http/body.ts';
import { type CoreResponse, encodeJson, JSON_TYPE } from '../http/http.ts';
import { parseOrThrow } from '../http/validate.ts';
import { formatCompactKey, parseCompactKey } from '../licensing/license-compact.ts';
import { looksLikeSimulatorKey } from '../licensing/license.ts';
import { isRevoked } from '../ports/order-state.ts';
import type { Order } from '../ports/order-store.ts';
import { contentDigest, type CoveredFields } from '../releases/answer-signature.ts';
import { LicenseValidateRequestSchema, type LicenseValidation } from '../schemas/license.ts';
import { keyWindowsOf, liveReleases } from '../licensing/key-windows.ts';
import { updateTerms } from '../licensing/update-window.ts';

const encoder = new TextEncoder();

/** The key as the server issued it: a version-2 key as typed (any case, dashes and spaces anywhere) in its printed form. */
export function issuedForm(typed: string): string {
  const text = typed.trim();
  if (text.startsWith('key/') || text.startsWith('sim/')) return text;
  const parts = parseCompactKey(text);
  return parts ? formatCompactKey(parts.payload, parts.signature) : text;
}

/** An ISO 8601 UTC time to the second, without fractions: `2026-12-10T12:00:00Z`. */
const isoSeconds = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Reads the key's order: valid while the order's licenses stand (core/ports/order-state.ts isRevoked), with
 * what the key unlocks, a lease of `context.licenseLeaseSeconds` from now, and the key's update window and
 * fallback line (core/licensing/update-window.ts, over the live releases of the stable channel); revoked once a refund, a
 * dispute not won or the operator revokes them; unknown when no order holds the key (a payment-simulator
 * key too, unless the server runs the simulator). The answer covers the key's SHA-256 in
 * `License-Key-Digest`, so that an answer about one key cannot be passed off as one about another; its
 * signature is tagged `license-standing` (never an update answer) and carries the app's `nonce` when it sent one.
 */
export function validateLicense(context: AppContext): Operation {
  const { signatures } = context;
  /** The standing, with the update terms when asked for (an addition: without them the answer is as before). */
  const standingOf = async (licenseKey: string, withTerms: boolean): Promise<LicenseValidation> => {
    const key = issuedForm(licenseKey);
    const unknown: LicenseValidation = {
      standing: 'unknown',
      product: null,
      validUntil: null,
      ...(withTerms ? { updatesUntil: null, fallbackLine: null } : {}),
    };
    if (looksLikeSimulatorKey(key) && context.gateway.simulated !== true) return unknown;
    const order = await context.storage.orders.ofLicenseKey(key);
    if (order === null || order.keys === null) return unknown;
    if (isRevoked(order.standing)) return { ...unknown, standing: 'revoked' };
    const now = Math.floor(context.clock.now() / 1000);
    const product = order.keys.standard === key ? 'standard' : 'plus';
    const valid: LicenseValidation = { standing: 'valid', product, validUntil: isoSeconds(now + context.licenseLeaseSeconds) };
    return withTerms ? { ...valid, ...(await windowOf(order, product)) } : valid;
  };
  /** The key's window and fallback line; the releases are read only for a key with a window. */
  const windowOf = async (order: Order, product: 'standard' | 'plus') => {
    const until = keyWindowsOf(order).find((key) => key.product === product)?.updatesUntil ?? null;
    if (until === null) return { updatesUntil: null, fallbackLine: null };
    // The stable channel's: the request does not say the app's channel, and /version serves stable.
    const releases = liveReleases(await context.storage.releases.listReleases(), context.updateFiles.names);
    const terms = updateTerms(until, releases, (await context.releases.baseline()).version);
    return { updatesUntil: isoSeconds(until / 1000), fallbackLine: terms.fallbackLine };
  };
  return async (request): Promise<CoreResponse> => {
    const { licenseKey, nonce, updateTerms } = parseOrThrow(LicenseValidateRequestSchema, readJsonObject(request, context.bodyLimit, true));
    const body = encodeJson(await standingOf(licenseKey, updateTerms === true));
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    if (!signatures) return { status: 200, headers, body };
    const fields: CoveredFields = [
      ['content-digest', await contentDigest(body)],
      ['license-key-digest', await contentDigest(encoder.encode(licenseKey))],
    ];
    for (const [name, value] of fields) headers[name] = value;
    const signature = await signatures.sign(200, fields, { tag: 'license-standing', nonce: nonce ?? null });
    headers['signature-input'] = signature['signature-input'];
    headers['signature'] = signature.signature;
    return { status: 200, headers, body };
  };
}
