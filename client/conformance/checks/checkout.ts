/** POST checkout/create and GET checkout/status (rules 7 and 8), and the paid state through the hook. */
import { describe, fail } from '../answer.ts';
import { type Check, type Client, type Tester, V1 } from '../check.ts';
import { expectApiError, expectObject } from '../expect.ts';
import { CHECKOUT_CREATED, CHECKOUT_STATUS, expectShape } from '../shape.ts';

/** Creates a session; `body` undefined sends no body. */
export async function create(client: Client, body?: unknown, path = `${V1}/checkout/create`): Promise<{ sessionId: string; url: string }> {
  const created = expectObject(await client.post(path, body), 200);
  expectShape(created, CHECKOUT_CREATED);
  if (created['sessionId'] === '') fail('expected a sessionId, got ""');
  return created as { sessionId: string; url: string };
}

/** Reads a session's status. */
export async function status(client: Client, sessionId: string, path = `${V1}/checkout/status`): Promise<Record<string, unknown>> {
  const body = expectObject(await client.get(`${path}?session_id=${encodeURIComponent(sessionId)}`), 200);
  expectShape(body, CHECKOUT_STATUS);
  return body;
}

const KEYS = ['licenseKey', 'standardLicenseKey', 'plusLicenseKey'];

export const checkoutChecks: readonly Check[] = [
  {
    id: 'checkout-create-without-body',
    clause: 'checkout-create-request.optional',
    also: ['checkout-create-response.fields', 'endpoints.post-checkout-create', 'rules.7'],
    title: 'POST checkout/create without a body is 200 with exactly {sessionId, url (URI)}',
    requests: 1,
    sessions: 1,
    async run(t) {
      await create(t.client());
    },
  },
  {
    id: 'checkout-create-products',
    clause: 'rules.7',
    also: ['checkout-create-request.values'],
    title: 'POST checkout/create takes each product (standard, plus_addon, plus_bundle) and channel (store, msi), and {}',
    requests: 4,
    sessions: 4,
    async run(t) {
      const client = t.client();
      for (const body of [{ product: 'standard', channel: 'store' }, { product: 'plus_addon', channel: 'msi' }, { product: 'plus_bundle' }, {}]) {
        await create(client, body);
      }
    },
  },
  {
    id: 'checkout-status',
    clause: 'rules.8',
    also: ['checkout-status.fields', 'states.checkout-status', 'endpoints.get-checkout-status'],
    title: 'GET checkout/status of a new session is 200 with a status of pending, processing or paid, keys string or null',
    requests: 2,
    sessions: 1,
    async run(t) {
      const client = t.client();
      await status(client, (await create(client)).sessionId);
    },
  },
  {
    id: 'checkout-status-session-required',
    clause: 'rules.8',
    also: ['endpoints.get-checkout-status'],
    title: 'GET checkout/status without session_id is 400',
    requests: 1,
    async run(t) {
      expectApiError(await t.client().get(`${V1}/checkout/status`), 400);
    },
  },
  {
    id: 'checkout-status-unknown-session',
    clause: 'rules.8.unknown-session',
    also: ['endpoints.get-checkout-status'],
    title: 'GET checkout/status for a session_id no target issued is 400 or 404 with an error object, never a status',
    requests: 1,
    async run(t) {
      const answer = await t.client().get(`${V1}/checkout/status?session_id=${unknownSessionId()}`);
      if (answer.status !== 400 && answer.status !== 404) fail(`expected 400 or 404 for a session no target issued, got: ${describe(answer)}`);
      expectApiError(answer, answer.status);
    },
  },
  {
    id: 'checkout-paid',
    clause: 'rules.8',
    also: ['states.checkout-status'],
    title: 'After payment (through the payment hook), GET checkout/status says paid',
    requests: 5,
    sessions: 1,
    needs: ['payment'],
    async run(t) {
      await paid(t);
    },
  },
  {
    id: 'checkout-paid-license-key',
    clause: 'rules.8',
    title: 'After payment (through the payment hook), GET checkout/status gives an issued license key',
    requests: 5,
    sessions: 1,
    needs: ['payment'],
    strict: 'rule 8 returns "any issued license keys", so a paid session may have none yet',
    async run(t) {
      const body = await paid(t);
      if (!KEYS.some((key) => typeof body[key] === 'string' && body[key] !== '')) {
        fail(`expected an issued license key after payment, got ${JSON.stringify(body)}`);
      }
    },
  },
];

/** Creates a session, pays it through the hook and reads it until it says paid (a few reads). */
async function paid(t: Tester): Promise<Record<string, unknown>> {
  const client = t.client();
  const checkout = await create(client, { product: 'standard' });
  await t.pay(checkout, client);
  let body = await status(client, checkout.sessionId);
  // Processing may come between; a few reads, not a deadline.
  for (let read = 1; read < 3 && body['status'] !== 'paid'; read++) body = await status(client, checkout.sessionId);
  if (body['status'] !== 'paid') fail(`expected status "paid" after payment, got ${JSON.stringify(body)}`);
  return body;
}

/** A session id no target could have issued: the kit's name and 128 random bits. */
function unknownSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `conformance-kit-unknown-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
