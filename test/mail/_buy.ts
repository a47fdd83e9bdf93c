/** A standard license bought in process through the simulator by ada@example.com, and fulfilled (its status read); resolves with its session. */
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, type TestApp } from '../_setup.ts';

export async function buy(t: TestApp): Promise<string> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product: 'standard' } }));
  const { sessionId } = bodyJson(created) as { sessionId: string };
  const body = new URLSearchParams({ email: 'ada@example.com', name: 'Ada', country: 'GB' }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  assert.is((await t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers, body }))).status, 303);
  const status = await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }));
  assert.is((bodyJson(status) as { status: string }).status, 'paid');
  return sessionId;
}
