/**
 * The closed lists the requests and the stored records share: feedback types, checkout products and
 * channels. The schemas validate against them; the ports' records are typed by them.
 *
 * @module
 */

export const FEEDBACK_TYPES = ['feature_request', 'bug_report', 'general', 'review'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export const CHECKOUT_SKUS = ['standard', 'plus_addon', 'plus_bundle'] as const;
export type CheckoutSku = (typeof CHECKOUT_SKUS)[number];

export const CHECKOUT_CHANNELS = ['store', 'msi'] as const;
export type CheckoutChannel = (typeof CHECKOUT_CHANNELS)[number];
