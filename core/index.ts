/**
 * The core of the converter website API: pure operations over ports, no runtime of its own.
 *
 * @module
 */
export { createApp, type App, type AppOptions } from './app.ts';
export { API_ROUTES, ALIAS_PREFIX, V1_PREFIX, type ApiRoute } from './api.ts';
export { ApiError, ERROR_CATALOGUE, type ApiErrorBody, type ErrorCode } from './errors.ts';
export type { CoreRequest, CoreResponse, HeaderMap } from './http.ts';
export { headerValue } from './http.ts';
export * from './ports.ts';
export { canonicalIp, clientKey, parseCidrList, resolveClientIp, type CidrSet } from './client-ip.ts';
export { PUBLIC_API_POLICY, type RateLimitPolicy } from './rate-limit.ts';
export { SiteContentSchema, type SiteContent } from './schemas/content.ts';
export { buildOpenApi } from './openapi/build.ts';
export type { AliasDeprecation } from './deprecation.ts';
export { createLicenseIssuer, generateSigningKey, publicKeyOf, verifyLicenseKey, type LicensePayload } from './license.ts';
export { DEFAULT_BODY_LIMIT } from './body.ts';
export type { SyncHmacSha256 } from './voter-id.ts';
