/**
 * The public interface in one table: every operation's endpoint (endpoints.ts: path, schemas, error codes)
 * with the operation that answers it. The router and /openapi.json are both built from it, so they cannot
 * disagree; the typed client reads the same endpoints.
 *
 * @module
 */
import type { AppContext, Operation } from './context.ts';
import * as endpoints from './endpoints.ts';
import type { Endpoint } from './endpoints.ts';
import type { ErrorCode } from './errors.ts';
import { checkoutStatus, createCheckout } from './operations/checkout.ts';
import { download } from './operations/download.ts';
import { feedback } from './operations/feedback.ts';
import { gatewayWebhook } from './operations/gateway-webhook.ts';
import { pricing } from './operations/pricing.ts';
import { listRoadmap, toggleVote } from './operations/roadmap.ts';
import { version } from './operations/version.ts';

export { ALIAS_PREFIX, OPERATOR_TAG, V1_PREFIX, type Endpoint } from './endpoints.ts';

/** One public operation as it is routed and documented: its endpoint (endpoints.ts) and its operation. */
export interface ApiRoute extends Endpoint {
  create: (context: AppContext) => Operation;
  /**
   * The operation only reads storage: with counters that answer later (PostgreSQL), it starts beside the
   * rate-limit hit instead of after it, and its answer is dropped when the hit is refused. One round trip
   * instead of two; a refused read joins a batched statement (adapters/sql/batch.ts), it adds none.
   */
  readsOnly?: true;
}

/** The codes every route can answer with. */
export const COMMON_ERRORS: readonly ErrorCode[] = ['rate_limited', 'internal_error'];

export const API_ROUTES: readonly ApiRoute[] = [
  { ...endpoints.getPricing, create: pricing },
  { ...endpoints.downloadInstaller, create: download },
  { ...endpoints.getVersion, create: version },
  { ...endpoints.submitFeedback, create: feedback },
  { ...endpoints.listRoadmap, create: listRoadmap, readsOnly: true },
  { ...endpoints.toggleRoadmapVote, create: toggleVote },
  { ...endpoints.createCheckout, create: createCheckout },
  { ...endpoints.getCheckoutStatus, create: checkoutStatus },
  { ...endpoints.receiveGatewayNotification, create: gatewayWebhook },
];
