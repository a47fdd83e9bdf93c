/**
 * GET and POST /api/v1/roadmap: the visible features, and the caller's vote toggle.
 *
 * @module
 */
import { readJsonObject } from '../http/body.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { json } from '../http/http.ts';
import { VoteRequestSchema } from '../schemas/requests.ts';
import { parseOrThrow } from '../http/validate.ts';
import { clientKeyOf } from '../clients/client-ip.ts';

/** Lists the visible features, each with `voted` for the caller. */
export function listRoadmap(context: AppContext): Operation {
  return async (request) => {
    const voter = context.voterId(clientKeyOf(request));
    return json(200, { features: await context.storage.roadmap.listRoadmap(voter) });
  };
}

/** Toggles the caller's vote for one visible feature; 404 feature_not_found for any other id. */
export function toggleVote(context: AppContext): Operation {
  return async (request) => {
    const { featureId } = parseOrThrow(VoteRequestSchema, readJsonObject(request, context.bodyLimit, true));
    const voter = context.voterId(clientKeyOf(request));
    const result = await context.storage.roadmap.toggleVote(featureId, voter, context.voterNetwork(request.clientIp));
    if (!result) throw new ApiError('feature_not_found', `No visible roadmap feature has id ${featureId}.`);
    context.count('vote_toggled');
    return json(200, result);
  };
}
