/**
 * Migration 34 (issue 46): a feedback entry may name the roadmap feature it asks for (core/ports/link-store.ts).
 * No foreign key: features are never deleted, and a link to a merged one counts for the feature its votes
 * went to (core/changelog/linked-requests.ts).
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const feedbackLinkedToFeatures: Migration = {
  version: 34,
  name: 'feedback linked to features',
  sql: `
alter table feedback add column feature_id integer;
create index feedback_feature on feedback (feature_id, id) where feature_id is not null;
comment on column feedback.feature_id is 'the roadmap feature the entry asks for, set by the operator; null when not linked';
`,
};
