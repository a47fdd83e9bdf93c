/**
 * The public interface in one table: every operation's endpoint (endpoints.ts: path, schemas, error codes)
 * with the operation that answers it. The router and /openapi.json are both built from it, so they cannot
 * disagree; the typed client reads the same endpoints.
 *
 * @module
 */
import * as endpoints from './endpoints.ts';
import { checkoutStatus, createCheckout } from './operations/checkout.ts';
import { download } from './operations/download.ts';
import { feedback } from './operations/feedback.ts';
import { gatewayWebhook } from './operations/gateway-webhook.ts';
import { validateLicense } from './operations/license-validate.ts';
import { pricing } from './operations/pricing.ts';
import { listRoadmap, toggleVote } from './operations/roadmap.ts';
import { version } from './operations/version.ts';
import { resendLicenses } from './operations/licenses-resend.ts';

export { ALIAS_PREFIX, OPERATOR_TAG, V1_PREFIX, type Endpoint } from './endpoints.ts';
export { COMMON_ERRORS, type ApiRoute } from './api-route.ts';
import type { ApiRoute } from './api-route.ts';


export const API_ROUTES: readonly ApiRoute[] = [
  { ...endpoints.getPricing, create: pricing },
  { ...endpoints.downloadInstaller, create: download },
  { ...endpoints.getVersion, create: version },
  { ...endpoints.submitFeedback, create: feedback },
  { ...endpoints.listRoadmap, create: listRoadmap, readsOnly: true },
  { ...endpoints.toggleRoadmapVote, create: toggleVote },
  { ...endpoints.createCheckout, create: createCheckout },
  { ...endpoints.getCheckoutStatus, create: checkoutStatus },
  { ...endpoints.validateLicense, create: validateLicense },
  { ...endpoints.receiveGatewayNotification, create: gatewayWebhook },
  { ...endpoints.resendLicenses, create: resendLicenses },
];
