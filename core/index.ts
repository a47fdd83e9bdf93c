/**
 * The core of the converter website API: pure operations over ports, no runtime of its own.
 *
 * @module
 */
export { type App, type AppOptions, createApp } from './app.ts';
export { APP_PATH_PREFIXES, APP_PATHS, isAppPath } from './http/paths.ts';
export { WINDOWS_ONLY_PATH } from './operations/windows-only.ts';
export { ALIAS_PREFIX, API_ROUTES, type ApiRoute, type Endpoint, V1_PREFIX } from './api.ts';
export { ApiError, type ApiErrorBody, ERROR_CATALOGUE, type ErrorCode } from './http/errors.ts';
export type { CoreRequest, CoreResponse, HeaderMap } from './http/http.ts';
export type { Answer } from './http/maybe.ts';
export type { MailBlock, MailContent, MailHtml, MailParagraph, MailPart } from './ports/mail.ts';
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
  Storage,
  VersionSource,
} from './ports/ports.ts';
export { CHECKOUT_CHANNELS, CHECKOUT_SKUS, FEEDBACK_TYPES } from './ports/ports.ts';
export { canonicalIp, type CidrSet, clientKey, resolveClientIp } from './clients/client-ip.ts';
export type { ClientAddressPolicy } from './clients/client-address.ts';
export { parseCidrList } from './clients/cidr.ts';
export { PUBLIC_API_POLICY, type RateLimitPolicy } from './pipeline/rate-limit.ts';
export { type PageLink, type SiteContent, SiteContentSchema, type WindowsOnlyPage } from './schemas/content.ts';
export { buildOpenApi } from './openapi/build.ts';
export type { AliasDeprecation } from './http/deprecation.ts';
export {
  type CompactLicensePayload,
  createLicenseIssuer,
  generateSigningKey,
  type LegacyLicensePayload,
  type LicensePayload,
  looksLikeSimulatorKey,
  publicKeyOf,
  SIMULATOR_KEY_PREFIX,
  verifyLicenseKey,
} from './licensing/license.ts';
export { LIFETIME_SALES, type SaleWindows, type WindowDays } from './licensing/sale-windows.ts';
export { DEFAULT_BODY_LIMIT } from './http/body.ts';
export { ApiErrorSchema, ERROR_CODES } from './schemas/api-error.ts';
export {
  type CheckoutCreateRequest,
  CheckoutCreateRequestSchema,
  DownloadForceSchema,
  DownloadSourceSchema,
  type FeedbackRequest,
  FeedbackRequestSchema,
  SessionIdSchema,
  type VoteRequest,
  VoteRequestSchema,
} from './schemas/requests.ts';
export {
  type LicenseStanding,
  type LicenseValidateRequest,
  LicenseValidateRequestSchema,
  type LicenseValidation,
  LicenseValidationSchema,
} from './schemas/license.ts';
// A roadmap feature's types: the answer's is `converter-site-api/client`'s, the content port's `converter-site-api/storage`'s.
export {
  type CheckoutCreateResponse,
  CheckoutCreateResponseSchema,
  type CheckoutStatus,
  CheckoutStatusSchema,
  type FeedbackSuccess,
  FeedbackSuccessSchema,
  type Pricing,
  PricingSchema,
  ROADMAP_CATEGORIES,
  type RoadmapCategory,
  RoadmapFeatureSchema,
  type RoadmapList,
  RoadmapListSchema,
  type Version,
  VersionSchema,
  type VoteResponse,
  VoteResponseSchema,
} from './schemas/responses.ts';
