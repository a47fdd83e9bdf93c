/**
 * Schemas of the operator-facing notification endpoint, for /openapi.json.
 *
 * @module
 */
import * as v from 'valibot';

/** The header that carries the provider's signature of the raw body. */
export const SignatureHeaderSchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.description(
    'The provider\'s signature of the raw body, e.g. Stripe\'s "t=<unix seconds>,v1=<hex HMAC-SHA-256>" ' +
      '(several v1 entries while a secret is rolled).',
  ),
);

/** A provider event as it arrives: only the fields the server reads are described. */
export const GatewayEventSchema = v.pipe(
  v.looseObject({
    id: v.pipe(v.string(), v.description("The provider's event id.")),
    type: v.pipe(
      v.string(),
      v.description(
        'checkout.session.completed, checkout.session.async_payment_succeeded, ' +
          'checkout.session.async_payment_failed and checkout.session.expired are applied; other types are acknowledged and ignored.',
      ),
    ),
    data: v.looseObject({
      object: v.pipe(v.looseObject({}), v.description('The checkout session the event concerns.')),
    }),
  }),
  v.description('An event as the payment provider sends it, signed over its exact bytes.'),
);

export const WebhookAckSchema = v.strictObject({
  received: v.pipe(v.literal(true), v.description('The event was verified and applied (or ignored).')),
});
