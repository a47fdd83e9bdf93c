/**
 * GET /api/v1/pricing: the live offer.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, JSON_TYPE } from '../http/http.ts';
import type { Pricing } from '../schemas/responses.ts';
import { PricingSchema } from '../schemas/responses.ts';

/**
 * Serves the offer of the offer source from bytes serialized once per offer: a request only asks the
 * source for its current object and compares it with the last one, so nothing is serialized or awaited
 * while the offer stays the same. An offer that breaks the Pricing schema is a fault of the source:
 * logged once, and the last good offer (at first the configured one) is served instead.
 */
export function pricing(context: AppContext): Operation {
  const { offer: source, logger } = context;
  let served: Pricing = context.content.offer;
  let rejected: Pricing | null = null;
  let body = encodeJson(served);

  const adopt = (offer: Pricing): void => {
    if (offer === rejected) return;
    if (!v.is(PricingSchema, offer)) {
      rejected = offer;
      logger.error('the offer source gave an offer that breaks the Pricing schema; serving the last good offer');
      return;
    }
    served = offer;
    body = encodeJson(offer);
  };

  return () => {
    const offer = source.current();
    if (offer !== served) adopt(offer);
    return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
  };
}
