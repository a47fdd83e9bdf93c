/**
 * GET /api/v1/pricing: the live offer.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, JSON_TYPE } from '../http.ts';

/** Serves the operator's offer, serialized once. */
export function pricing(context: AppContext): Operation {
  const body = encodeJson(context.content.offer);
  return () => ({ status: 200, headers: { 'content-type': JSON_TYPE }, body });
}
