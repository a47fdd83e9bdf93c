/**
 * OpenAPI links: which answer feeds which next call, so that a stateful tester (Schemathesis) or a reader
 * can chain checkout create -> status and roadmap list -> vote with real values.
 *
 * @module
 */

type Json = Record<string, unknown>;

/** The links of each operation's success answer, by operationId; the targets are the /api/v1 operations. */
const LINKS: Readonly<Record<string, Json>> = {
  createCheckout: {
    GetCheckoutStatus: {
      operationId: 'getCheckoutStatus',
      parameters: { session_id: '$response.body#/sessionId' },
      description: 'The sessionId of the new session is the session_id of its status.',
    },
  },
  listRoadmap: {
    ToggleRoadmapVote: {
      operationId: 'toggleRoadmapVote',
      requestBody: { featureId: '$response.body#/features/0/id' },
      description: 'The id of a listed feature is the featureId of a vote for it.',
    },
  },
};

/**
 * The links of an operation's success answer.
 *
 * @param operationId The /api/v1 operation's id.
 * @returns The Links Object, or undefined when the answer feeds no other call.
 */
export function linksOf(operationId: string): Json | undefined {
  return LINKS[operationId];
}
