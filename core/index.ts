/**
 * The core of the converter website API: pure operations over ports, no runtime of its own.
 *
 * @module
 */
export { createApp, type App, type AppOptions } from './app.ts';
export { APP_PATH_PREFIXES, APP_PATHS, isAppPath } from './http/paths.ts';
export { WINDOWS_ONLY_PATH } from './operations/windows-only.ts';
export { API_ROUTES, ALIAS_PREFIX, V1_PREFIX, type ApiRoute, type Endpoint } from './api.ts';
export { ApiError, ERROR_CATALOGUE, type ApiErrorBody, type ErrorCode } from './http/errors.ts';
export type { CoreRequest, CoreResponse, HeaderMap } from './http/http.ts';
export type { Answer } from './http/maybe.ts';
export { headerValue } from './http/http.ts';
// The ports an embedder hands createApp and the records they carry. What an implementer of Storage needs
// besides (its sub-stores, their records, the rules every storage applies) is `converter-site-api/storage`.
export type {
  AnswerSigner,
  AppEvent,
  CheckoutChannel,
  CheckoutSession,
  CheckoutSku,
  CheckoutState,
  Clock,
  FeedbackType,
  GatewayNotification,
  GatewayPages,
  GatewayReport,
  GatewayRoute,
  GatewayStatus,
  LicenseIssuer,
  Logger,
  Observer,
  OfferSource,
  PaidSession,
  PaymentFlag,
  PaymentGateway,
  Purchase,
  RoadmapFeature,
  Storage,
  VersionSource,
} from './ports/ports.ts';
export { CHECKOUT_CHANNELS, CHECKOUT_SKUS, FEEDBACK_TYPES } from './ports/ports.ts';
export { canonicalIp, clientKey, resolveClientIp, type CidrSet } from './clients/client-ip.ts';
export type { ClientAddressPolicy } from './clients/client-address.ts';
export { parseCidrList } from './clients/cidr.ts';
export { PUBLIC_API_POLICY, type RateLimitPolicy } from './pipeline/rate-limit.ts';
export { SiteContentSchema, type PageLink, type SiteContent, type WindowsOnlyPage } from './schemas/content.ts';
export { buildOpenApi } from './openapi/build.ts';
export type { AliasDeprecation } from './http/deprecation.ts';
export {
  createLicenseIssuer,
  generateSigningKey,
  publicKeyOf,
  SIMULATOR_KEY_PREFIX,
  looksLikeSimulatorKey,
  verifyLicenseKey,
  type CompactLicensePayload,
  type LegacyLicensePayload,
  type LicensePayload,
} from './licensing/license.ts';
export { DEFAULT_BODY_LIMIT } from './http/body.ts';
export { ApiErrorSchema, ERROR_CODES } from './schemas/api-error.ts';
export {
  CheckoutCreateRequestSchema,
  DownloadForceSchema,
  DownloadSourceSchema,
  FeedbackRequestSchema,
  SessionIdSchema,
  VoteRequestSchema,
  type CheckoutCreateRequest,
  type FeedbackRequest,
  type VoteRequest,
} from './schemas/requests.ts';
export {
  LicenseValidateRequestSchema,
  LicenseValidationSchema,
  type LicenseStanding,
  type LicenseValidateRequest,
  type LicenseValidation,
} from './schemas/license.ts';
// RoadmapFeature is the content port's name here (ports.ts); the answer's type is `converter-site-api/client`'s.
export {
  CheckoutCreateResponseSchema,
  CheckoutStatusSchema,
  FeedbackSuccessSchema,
  PricingSchema,
  ROADMAP_CATEGORIES,
  RoadmapFeatureSchema,
  RoadmapListSchema,
  VersionSchema,
  VoteResponseSchema,
  type CheckoutCreateResponse,
  type CheckoutStatus,
  type FeedbackSuccess,
  type Pricing,
  type RoadmapCategory,
  type RoadmapList,
  type Version,
  type VoteResponse,
} from './schemas/responses.ts';
