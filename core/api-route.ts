/**
 * What the public table (api.ts) is made of: an endpoint (a row of endpoints.ts) with the operation that answers
 * it. The discovery documents (openapi/, llms-txt.ts) read routes of this shape.
 *
 * @module
 */
import type { AppContext, Operation } from './context.ts';
import type { Handler } from './http/router.ts';
import type { Endpoint } from './endpoint.ts';
import type { ErrorCode } from './http/errors.ts';

/** One public operation as it is routed and documented: its endpoint and the operation that answers it. */
export interface ApiRoute extends Endpoint {
  /** The operation; one with `pathParameters` reads them from its second argument (the router's params). */
  create: (context: AppContext) => Operation | Handler;
  /**
   * The operation only reads storage: with counters that answer later (PostgreSQL), it starts beside the
   * rate-limit hit instead of after it, and its answer is dropped when the hit is refused. One round trip
   * instead of two; a refused read joins a batched statement (adapters/sql/batch.ts), it adds none.
   */
  readsOnly?: true;
}

/** The codes every metered route can answer with (client_address_missing only under clientAddress: 'required'). */
export const COMMON_ERRORS: readonly ErrorCode[] = ['rate_limited', 'internal_error', 'client_address_missing'];
