/**
 * The typed client of the converter website API, for browsers, Node, Deno, Bun and Workers: one method
 * per operation, typed from the schemas the server validates with.
 *
 * ```ts
 * import { createClient } from 'converter-site-api/client';
 * const api = createClient({ baseUrl: 'https://www.example.com' });
 * const { licensePriceDisplay } = await api.getPricing();
 * ```
 *
 * @module
 */
export { createClient, createClientFor } from './create.ts';
export { ApiClientError, type ClientErrorCode } from './error.ts';
// The public table whole: each endpoint by its own name (`getPricingEndpoint`, ...) and PUBLIC_ENDPOINTS.
export * from '../core/endpoints.ts';
export type { ArgsOf, Client, ClientOptions, FetchFunction, Method, OpenApiDocument, RateLimitState, ResultOf, RetryOptions, WithMeta } from './types.ts';
export type { Endpoint } from '../core/endpoint.ts';
export type { ApiErrorBody, ErrorCode } from '../core/http/errors.ts';
export type { CheckoutCreateRequest, FeedbackRequest, VoteRequest } from '../core/schemas/requests.ts';
export type { LicenseStanding, LicenseValidateRequest, LicenseValidation } from '../core/schemas/license.ts';
export type {
  CheckoutCreateResponse,
  CheckoutStatus,
  FeedbackSuccess,
  Pricing,
  RoadmapCategory,
  RoadmapFeature,
  RoadmapList,
  Version,
  VoteResponse,
} from '../core/schemas/responses.ts';
