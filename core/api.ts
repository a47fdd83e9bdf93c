/**
 * The public interface in one table: each row of endpoints.ts bound to the operation that answers it, in
 * the order of /openapi.json, plus the payment provider's notifications (declared beside their operation).
 * The router, /openapi.json and /llms.txt are all built from it, so they cannot disagree; the typed client
 * reads the same rows. A row of endpoints.ts without its binding here does not compile (`Unbound` below).
 *
 * @module
 */
import * as endpoints from './endpoints.ts';
import { changelog, changelogAtom } from './operations/changelog.ts';
import { unsubscribe, unsubscribePage } from './operations/unsubscribe.ts';
import { checkoutStatus, createCheckout } from './operations/checkout.ts';
import { download } from './operations/download.ts';
import { feedback } from './operations/feedback.ts';
import { installs } from './operations/installs.ts';
import { gatewayWebhook, receiveGatewayNotificationEndpoint } from './operations/gateway-webhook.ts';
import { validateLicense } from './operations/license-validate.ts';
import { resendLicenses } from './operations/licenses-resend.ts';
import { pricing } from './operations/pricing.ts';
import { listRoadmap, toggleVote } from './operations/roadmap.ts';
import { version } from './operations/version.ts';
import type { ApiRoute } from './api-route.ts';
import type { Assert, Equal } from './schemas/exact.ts';

export { ALIAS_PREFIX, type Endpoint, OPERATOR_TAG, V1_PREFIX } from './endpoint.ts';
export { type ApiRoute, COMMON_ERRORS } from './api-route.ts';

const ROUTES = [
  { ...endpoints.getPricingEndpoint, create: pricing },
  { ...endpoints.downloadInstallerEndpoint, create: download },
  { ...endpoints.getVersionEndpoint, create: version },
  { ...endpoints.reportInstallEndpoint, create: installs },
  { ...endpoints.submitFeedbackEndpoint, create: feedback },
  { ...endpoints.listRoadmapEndpoint, create: listRoadmap, readsOnly: true },
  { ...endpoints.toggleRoadmapVoteEndpoint, create: toggleVote },
  { ...endpoints.createCheckoutEndpoint, create: createCheckout },
  { ...endpoints.getCheckoutStatusEndpoint, create: checkoutStatus },
  { ...endpoints.validateLicenseEndpoint, create: validateLicense },
  { ...receiveGatewayNotificationEndpoint, create: gatewayWebhook },
  { ...endpoints.resendLicensesEndpoint, create: resendLicenses },
  { ...endpoints.getChangelogEndpoint, create: changelog },
  { ...endpoints.getChangelogAtomEndpoint, create: changelogAtom },
  { ...endpoints.unsubscribeEndpoint, create: unsubscribe },
  { ...endpoints.getUnsubscribePageEndpoint, create: unsubscribePage },
] as const satisfies readonly ApiRoute[];

/** The rows of endpoints.ts that have no binding above; the discovery documents bind theirs (operations/discovery.ts). */
type Unbound = Exclude<endpoints.PublicEndpoint['operationId'], (typeof ROUTES)[number]['operationId'] | 'getLlmsTxt' | 'getOpenApi'>;
type _EveryRowIsBound = Assert<Equal<Unbound, never>>;

export const API_ROUTES: readonly ApiRoute[] = ROUTES;
