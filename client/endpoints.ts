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
  resendLicenses,
  submitFeedback,
  toggleRoadmapVote,
  validateLicense,
} from '../core/endpoints.ts';

// Each endpoint by its own name (not as one namespace object, which bundlers keep whole), for createClientFor.
export {
  createCheckout as createCheckoutEndpoint,
  downloadInstaller as downloadInstallerEndpoint,
  getCheckoutStatus as getCheckoutStatusEndpoint,
  getLlmsTxt as getLlmsTxtEndpoint,
  getOpenApi as getOpenApiEndpoint,
  getPricing as getPricingEndpoint,
  getVersion as getVersionEndpoint,
  listRoadmap as listRoadmapEndpoint,
  resendLicenses as resendLicensesEndpoint,
  submitFeedback as submitFeedbackEndpoint,
  toggleRoadmapVote as toggleRoadmapVoteEndpoint,
  validateLicense as validateLicenseEndpoint,
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
  validateLicense,
  resendLicenses,
  getLlmsTxt,
  getOpenApi,
] as const;

/** Any public endpoint. */
export type PublicEndpoint = (typeof PUBLIC_ENDPOINTS)[number];
