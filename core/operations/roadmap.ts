/**
 * GET and POST /api/v1/roadmap: the visible features, and the caller's vote toggle.
 *
 * @module
 */
import { readJsonObject } from '../body.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../errors.ts';
import { json, type CoreResponse } from '../http.ts';
import { andThen } from '../maybe.ts';
import type { RoadmapFeatureView, VoteResult } from '../ports.ts';
import { VoteRequestSchema } from '../schemas/requests.ts';
import { parseOrThrow } from '../validate.ts';

/** Lists the visible features, each with `voted` for the caller. */
export function listRoadmap(context: AppContext): Operation {
  const answer = (features: RoadmapFeatureView[]): CoreResponse => json(200, { features });
  const list = (voter: string) => andThen(context.storage.listRoadmap(voter), answer);
  // Synchronous with memory storage and a native HMAC: no promise per request.
  return (request) => andThen(context.voterId(request.clientIp), list);
}

/** Toggles the caller's vote for one visible feature; 404 feature_not_found for any other id. */
export function toggleVote(context: AppContext): Operation {
  return (request) => {
    const { featureId } = parseOrThrow(VoteRequestSchema, readJsonObject(request, context.bodyLimit, true));
    const answer = (result: VoteResult | null): CoreResponse => {
      if (!result) throw new ApiError('feature_not_found', `No visible roadmap feature has id ${featureId}.`);
      context.count('vote_toggled');
      return json(200, result);
    };
    return andThen(context.voterId(request.clientIp), (voter) => andThen(context.storage.toggleVote(featureId, voter), answer));
  };
}
