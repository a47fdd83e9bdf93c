/**
 * The public endpoints a client can call: every operation but the payment provider's notifications.
 *
 * @module
 */
import {
  createCheckout,
  downloadInstaller,
  getCheckoutStatus,
  getLlmsTxt,
  getOpenApi,
  getPricing,
  getVersion,
  listRoadmap,
  submitFeedback,
  toggleRoadmapVote,
} from '../core/endpoints.ts';

export {
  createCheckout,
  downloadInstaller,
  getCheckoutStatus,
  getLlmsTxt,
  getOpenApi,
  getPricing,
  getVersion,
  listRoadmap,
  submitFeedback,
  toggleRoadmapVote,
};

/** Every public endpoint. */
export const PUBLIC_ENDPOINTS = [
  getPricing,
  downloadInstaller,
  getVersion,
  submitFeedback,
  listRoadmap,
  toggleRoadmapVote,
  createCheckout,
  getCheckoutStatus,
  getLlmsTxt,
  getOpenApi,
] as const;

/** Any public endpoint. */
export type PublicEndpoint = (typeof PUBLIC_ENDPOINTS)[number];
