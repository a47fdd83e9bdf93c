/** POST /api/v1/feedback, and the body errors every JSON endpoint shares. */
import type { Spec } from '../_contract.ts';
import { expectError, expectJson, JSON_BODY } from './_expect.ts';

export const feedbackSpec: Spec = (it) => {
  it('valid feedback is 201 {success: true}', async (server) => {
    const body = JSON.stringify({ description: 'Löwe 🦁 says the WK3 import is great', type: 'review', rating: 5 });
    const response = await server.request({ method: 'POST', path: '/api/v1/feedback', headers: JSON_BODY, body, from: server.newClient() });
    expectJson(response, 201, { success: true });
  }, { smoke: true });

  it('a blank description is 400 description_required', async (server) => {
    const body = JSON.stringify({ description: '   ' });
    const response = await server.request({ method: 'POST', path: '/api/feedback', headers: JSON_BODY, body, from: server.newClient() });
    expectError(response, 400, 'description_required', 'Field "description" is required and must not be blank.');
  });

  it('malformed JSON is 400 invalid_request', async (server) => {
    const response = await server.request({ method: 'POST', path: '/api/v1/feedback', headers: JSON_BODY, body: '{"description":', from: server.newClient() });
    expectError(response, 400, 'invalid_request', 'The body is not valid JSON.');
  }, { smoke: true });

  it('a 1 MB body is 413 payload_too_large, and the server keeps serving', async (server) => {
    const from = server.newClient();
    const body = JSON.stringify({ description: 'x'.repeat(1024 * 1024) });
    const response = await server.request({ method: 'POST', path: '/api/v1/feedback', headers: JSON_BODY, body, from });
    expectError(response, 413, 'payload_too_large', 'The request body is larger than the limit of 16384 bytes.');
    const next = await server.request({ method: 'POST', path: '/api/v1/feedback', headers: JSON_BODY, body: '{"description":"ok"}', from });
    expectJson(next, 201, { success: true });
  }, { smoke: true });

  it('a text/plain body is 415 unsupported_media_type', async (server) => {
    const response = await server.request({
      method: 'POST',
      path: '/api/v1/feedback',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
      from: server.newClient(),
    });
    expectError(response, 415, 'unsupported_media_type', 'The body must be sent as application/json, not "text/plain".');
  });
};
