/**
 * Feedback linked to roadmap features in PostgreSQL and PGlite (core/ports/link-store.ts): the
 * feedback.feature_id column (migration 34).
 *
 * @module
 */
import type { FeedbackLinkState, FeedbackLinkStore, LinkedRequest } from '../../core/ports/link-store.ts';
import type { SqlClient } from './client.ts';

const LINKS_OF = `select id::float8 as "feedbackId", feature_id as "featureId" from feedback
where id = any($1::text[]::bigint[]) order by id`;
const LINKED = `select id::float8 as "feedbackId", feature_id as "featureId", email from feedback
where feature_id is not null order by id`;
const SET_FEATURE = `update feedback set feature_id = $2::int where id = any($1::text[]::bigint[])`;

/** Creates the link store over a database. */
export function createSqlLinks(db: SqlClient): FeedbackLinkStore {
  const idList = (ids: readonly number[]) => ids.map(String);
  return {
    linksOf: (ids) => db.query<FeedbackLinkState>(LINKS_OF, [idList(ids)]),
    linked: () => db.query<LinkedRequest>(LINKED),
    setFeature: async (ids, featureId) => {
      await db.write(SET_FEATURE, [idList(ids), featureId]);
    },
  };
}
