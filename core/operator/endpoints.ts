/**
 * The operator API in one table: every declared operation (operation.ts), in the order of its OpenAPI
 * document. The operator listener's router, its OpenAPI document, the pages and the CLI's typed client
 * are all read off it.
 *
 * @module
 */
import { listAudit } from './audit.ts';
import { listFeedback, markFeedbackHandled, markFeedbackListHandled } from './inbox.ts';
import { linkFeedbackFeature, linkFeedbackListFeature } from './feedback-links.ts';
import { exportOrders } from './order-export.ts';
import type { AnyOperatorOperation } from './operation.ts';
import { listOrders, reconcileOrders, reinstateOrder, revokeOrder, showOrder, upgradeOrder } from './orders.ts';
import { licenseUpdates } from './license-updates.ts';
import { listReleases, promoteRelease, publishRelease, pullRelease, restoreRelease, setReleaseRollout } from './releases.ts';
import { resumeRelease } from './release-halt.ts';
import { createRoadmapFeature, editRoadmapFeature, listRoadmapFeatures, mergeRoadmapFeature } from './roadmap.ts';
import { unmergeRoadmapFeature } from './roadmap-unmerge.ts';
import { setRequesterMails } from './requester-mails.ts';
import { getStats } from './stats.ts';
import { listOrderMails, resendOrderMail } from './mail.ts';
import { listFailedMails, retryMail } from './mail-retry.ts';
import { publishUpdateRoot, updateFilesStatus } from './update-roots.ts';
import { addWebhookEndpoint, editWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, replayWebhookDelivery } from './webhooks.ts';
import { deleteWebhookEndpoint, replayFailedWebhookDeliveries, rotateWebhookSecret, sendWebhookTest } from './webhook-admin.ts';

export const OPERATOR_OPERATIONS: readonly AnyOperatorOperation[] = [
  listReleases,
  publishRelease,
  setReleaseRollout,
  pullRelease,
  restoreRelease,
  promoteRelease,
  resumeRelease,
  updateFilesStatus,
  publishUpdateRoot,
  listRoadmapFeatures,
  createRoadmapFeature,
  editRoadmapFeature,
  mergeRoadmapFeature,
  unmergeRoadmapFeature,
  setRequesterMails,
  listFeedback,
  markFeedbackHandled,
  markFeedbackListHandled,
  linkFeedbackFeature,
  linkFeedbackListFeature,
  listWebhookEndpoints,
  addWebhookEndpoint,
  editWebhookEndpoint,
  deleteWebhookEndpoint,
  sendWebhookTest,
  rotateWebhookSecret,
  listWebhookDeliveries,
  replayWebhookDelivery,
  replayFailedWebhookDeliveries,
  getStats,
  listOrders,
  exportOrders,
  reconcileOrders,
  showOrder,
  upgradeOrder,
  revokeOrder,
  reinstateOrder,
  licenseUpdates,
  listOrderMails,
  resendOrderMail,
  listFailedMails,
  retryMail,
  listAudit,
];
