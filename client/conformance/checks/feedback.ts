/** POST feedback (rule 4) and its request's limits. */
import { fail } from '../answer.ts';
import { type Check, type Client, V1 } from '../check.ts';
import { expectApiError, expectObject } from '../expect.ts';
import { expectShape, FEEDBACK_SUCCESS } from '../shape.ts';

const PATH = `${V1}/feedback`;

/** Posts feedback and expects 201 {success: true}. */
async function accepted(client: Client, body: unknown): Promise<void> {
  const answer = await client.post(PATH, body);
  const success = expectObject(answer, 201);
  expectShape(success, FEEDBACK_SUCCESS);
  if (success['success'] !== true) fail(`expected {"success":true}, got ${answer.text}`);
}

/** Posts feedback and expects a 400 error object. */
async function refused(client: Client, body: unknown, code?: string): Promise<void> {
  expectApiError(await client.post(PATH, body), 400, code);
}

export const feedbackChecks: readonly Check[] = [
  {
    id: 'feedback-created',
    clause: 'feedback-success.body',
    also: ['rules.4', 'endpoints.post-feedback'],
    title: 'POST feedback with only a description is 201 with exactly {"success": true}',
    requests: 1,
    async run(t) {
      await accepted(t.client(), { description: 'conformance kit: only a description' });
    },
  },
  {
    id: 'feedback-every-field',
    clause: 'rules.4',
    also: ['feedback-request.type', 'feedback-request.email', 'feedback-request.appVersion', 'feedback-request.rating'],
    title: 'POST feedback takes each type (feature_request, bug_report, general, review), an email, appVersion and ratings 1 and 5',
    requests: 4,
    async run(t) {
      const client = t.client();
      const types = ['feature_request', 'bug_report', 'general', 'review'];
      for (const [i, type] of types.entries()) {
        await accepted(client, {
          description: `conformance kit: ${type}`,
          type,
          email: 'tester@example.com',
          appVersion: '1.0.0',
          rating: i % 2 === 0 ? 1 : 5,
        });
      }
    },
  },
  {
    id: 'feedback-description-required',
    clause: 'feedback-request.description',
    also: ['endpoints.post-feedback'],
    title: 'POST feedback without a description is 400 with an error object',
    requests: 1,
    async run(t) {
      await refused(t.client(), { type: 'general' });
    },
  },
  {
    id: 'feedback-description-required-code',
    clause: 'errors.description_required',
    title: 'POST feedback without a description is 400 description_required',
    requests: 1,
    strict: 'the error table says only that description_required "presumably" means a missing description',
    async run(t) {
      await refused(t.client(), { type: 'general' }, 'description_required');
    },
  },
  {
    id: 'feedback-description-empty',
    clause: 'limits.feedback-description',
    also: ['feedback-request.description'],
    title: 'POST feedback with an empty description (below minimum length 1) is 400',
    requests: 1,
    async run(t) {
      await refused(t.client(), { description: '' });
    },
  },
  {
    id: 'feedback-rating-range',
    clause: 'limits.feedback-rating',
    also: ['feedback-request.rating'],
    title: 'POST feedback with rating 0, 6 or 2.5 (not an integer 1 to 5) is 400',
    requests: 3,
    async run(t) {
      const client = t.client();
      for (const rating of [0, 6, 2.5]) await refused(client, { description: 'conformance kit: rating', rating });
    },
  },
  {
    id: 'feedback-type-values',
    clause: 'feedback-request.type',
    title: 'POST feedback with a type outside feature_request, bug_report, general, review is 400',
    requests: 1,
    async run(t) {
      await refused(t.client(), { description: 'conformance kit: type', type: 'praise' });
    },
  },
  {
    id: 'feedback-email-format',
    clause: 'feedback-request.email',
    title: 'POST feedback with an email that is not in email format is 400',
    requests: 1,
    async run(t) {
      await refused(t.client(), { description: 'conformance kit: email', email: 'not an email' });
    },
  },
  {
    id: 'feedback-body-required',
    clause: 'endpoints.post-feedback',
    title: 'POST feedback without a body (the body is required) is 400',
    requests: 1,
    async run(t) {
      expectApiError(await t.client().post(PATH), 400);
    },
  },
];
