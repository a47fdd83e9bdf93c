import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const feedback = suite('feedback');
const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';

async function post(json: unknown, app?: Awaited<ReturnType<typeof createTestApp>>) {
  const t = app ?? (await createTestApp());
  const response = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json }));
  return { ...t, response };
}

feedback('a description alone is accepted: 201 {success: true}, stored as general with the time', async () => {
  const { response, storage, clock } = await post({ description: 'Please add .wk5' });
  assert.is(response.status, 201);
  assert.is(response.headers['content-type'], 'application/json');
  assert.equal(bodyJson(response), { success: true });
  assert.equal(storage.feedback, [
    { type: 'general', description: 'Please add .wk5', email: null, appVersion: null, rating: null, receivedAt: clock.now() },
  ]);
});

feedback('every field is stored as given', async () => {
  const { response, storage, clock } = await post({
    description: 'Great tool — converts my 1991 budgets 👍',
    type: 'review',
    email: 'ann@example.com',
    appVersion: '2.4.1',
    rating: 5,
  });
  assert.is(response.status, 201);
  assert.equal(storage.feedback, [
    {
      type: 'review',
      description: 'Great tool — converts my 1991 budgets 👍',
      email: 'ann@example.com',
      appVersion: '2.4.1',
      rating: 5,
      receivedAt: clock.now(),
    },
  ]);
});

feedback('fields the spec does not list are ignored, not stored', async () => {
  const { response, storage } = await post({ description: 'x', os: 'Windows 11' });
  assert.is(response.status, 201);
  assert.not.ok('os' in storage.feedback[0]!);
});

for (
  const [name, body] of [
    ['missing', {}],
    ['null', { description: null }],
    ['empty', { description: '' }],
    ['blank', { description: ' \n\t ' }],
  ] as const
) {
  feedback(`a ${name} description is 400 description_required and nothing is stored`, async () => {
    const { response, storage } = await post(body);
    assert.is(response.status, 400);
    assert.equal(bodyJson(response), {
      code: 'description_required',
      message: 'Field "description" is required and must not be blank.',
      resolution: 'Send a non-empty "description" string in the JSON body.',
    });
    assert.is(storage.feedback.length, 0);
  });
}

for (
  const [name, body, message] of [
    ['a non-string description', { description: 42 }, 'Field "description" must be a string.'],
    ['a description over 5000 characters', { description: 'x'.repeat(5001) }, 'Field "description" must be at most 5000 characters long.'],
    ['an unknown type', { description: 'x', type: 'complaint' }, 'Field "type" must be one of feature_request, bug_report, general, review.'],
    ['a malformed email', { description: 'x', email: 'not-an-email' }, 'Field "email" must be an email address.'],
    ['an email over 200 characters', { description: 'x', email: `${'a'.repeat(190)}@example.com` }, 'Field "email" must be at most 200 characters long.'],
    ['an appVersion over 200 characters', { description: 'x', appVersion: '1'.repeat(201) }, 'Field "appVersion" must be at most 200 characters long.'],
    ['a rating of 0', { description: 'x', rating: 0 }, 'Field "rating" must be an integer from 1 to 5.'],
    ['a rating of 6', { description: 'x', rating: 6 }, 'Field "rating" must be an integer from 1 to 5.'],
    ['a fractional rating', { description: 'x', rating: 4.5 }, 'Field "rating" must be an integer from 1 to 5.'],
    ['a rating as a string', { description: 'x', rating: '5' }, 'Field "rating" must be an integer from 1 to 5.'],
    [
      'a NUL character',
      { description: 'a\u0000b' },
      'Field "description" must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates.',
    ],
    [
      'an unpaired surrogate',
      { description: 'a\ud800b' },
      'Field "description" must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates.',
    ],
  ] as const
) {
  feedback(`${name} is 400 invalid_request naming the field`, async () => {
    const { response, storage } = await post(body);
    assert.is(response.status, 400);
    assert.equal(bodyJson(response), { code: 'invalid_request', message, resolution: INVALID });
    assert.is(storage.feedback.length, 0);
  });
}

feedback('a description of exactly 5000 characters is accepted', async () => {
  const { response } = await post({ description: 'y'.repeat(5000) });
  assert.is(response.status, 201);
});

feedback('a storage fault is 500 internal_error with nothing of the fault in the body, and is logged', async () => {
  const t = await createTestApp();
  const broken = await createTestApp({
    storage: { ...t.storage, intake: { ...t.storage.intake, addFeedback: () => Promise.reject(new Error('relation "feedback" does not exist')) } },
  });
  const { response } = await post({ description: 'x' }, broken);
  assert.is(response.status, 500);
  assert.equal(bodyJson(response), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.is(broken.logger.lines.length, 1);
  assert.is(broken.logger.lines[0]!.message, 'unhandled error');
  assert.match(String(broken.logger.lines[0]!.fields?.['error']), 'relation "feedback" does not exist');
});

feedback.run();
