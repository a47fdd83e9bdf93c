/**
 * POST /api/v1/licenses/resend in process: the answer never waits for the order lookup or the mail. An
 * address with orders and one without take the same storage calls, in the same order, before the same
 * answer; the resend step (App.processResendRequests) later writes the mail, also after the app that
 * accepted the request is gone (the request is stored, not held in memory).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { CoreResponse } from '../../core/http/http.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { RESEND_ACCEPTED } from '../../core/schemas/licenses-resend.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, manualClock, type TestApp } from '../_setup.ts';

interface Context {
  t: TestApp;
  storage: Storage;
  /** Every storage method called, as `subStore.method` or `method`, in order. */
  calls: string[];
}
const test = suite<Context>('POST /api/v1/licenses/resend: accepted, then mailed in the background', {} as Context);

/** A storage that records each method called on it or on its sub-stores. */
function recording(storage: Storage, calls: string[]): Storage {
  const wrap = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(object, key) {
        const value: unknown = Reflect.get(object, key);
        if (typeof key !== 'string') return value;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            calls.push(prefix + key);
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        return prefix === '' && typeof value === 'object' && value !== null ? wrap(value, `${key}.`) : value;
      },
    });
  return wrap(storage, '');
}

test.before.each(async (context) => {
  const clock = manualClock();
  context.calls = [];
  context.storage = createMemoryStorage({ clock });
  context.t = await createTestApp({ storage: recording(context.storage, context.calls), clock });
});

/** A standard license paid on the simulator's page by `email`; its key. */
async function buy({ t }: Context, email: string): Promise<string> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product: 'standard' } }));
  const { sessionId } = bodyJson(created) as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: `email=${encodeURIComponent(email)}` }));
  const status = bodyJson(await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }))) as {
    standardLicenseKey: string;
  };
  return status.standardLicenseKey;
}

/** The resend mails in the outbox (a purchase writes its own keys mail too). */
const resendMails = async ({ storage }: Context) => (await storage.mail.list({ limit: 10 })).filter((m) => m.kind === 'resend');

const resend = ({ t }: Context, email: string, clientIp: string): Promise<CoreResponse> =>
  Promise.resolve(
    t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/resend', clientIp, headers: { 'x-request-id': 'same-request-id' }, json: { email } })),
  );

/** The answer and the storage calls made before it. */
async function answered(context: Context, email: string, clientIp: string) {
  context.calls.length = 0;
  const answer = await resend(context, email, clientIp);
  return { status: answer.status, headers: answer.headers, body: bodyText(answer), calls: [...context.calls] };
}

test('a buyer and an unknown address: the same storage calls in the same order, then the same 202, headers and body', async (context) => {
  const key = await buy(context, 'ann@example.com');
  const known = await answered(context, 'Ann@Example.com', '203.0.113.20');
  const unknown = await answered(context, 'nobody@example.com', '203.0.113.21');
  // The public quota, the client's and the address's counters, then the one write: no lookup, no mail.
  assert.equal(known.calls, ['rateLimits.hit', 'rateLimits.hit', 'rateLimits.hit', 'mail.requestResend']);
  assert.equal(unknown.calls, known.calls);
  assert.is(known.status, 202);
  assert.is(known.body, JSON.stringify(RESEND_ACCEPTED));
  assert.is(known.headers['content-type'], 'application/json');
  assert.equal(unknown, known);
  assert.equal(await resendMails(context), []);

  assert.is(await context.t.app.processResendRequests(), 2);
  const mails = await resendMails(context);
  assert.equal(mails.map((m) => [m.kind, m.to, m.session, m.state]), [['resend', 'ann@example.com', null, 'pending']]);
  assert.match(mails[0]!.text, key);
  assert.is(await context.t.app.processResendRequests(), 0);
});

test('a request outlives the app that accepted it: another app on the storage writes its mail, once', async (context) => {
  await buy(context, 'bea@example.com');
  assert.is((await resend(context, 'bea@example.com', '203.0.113.30')).status, 202);
  // The first app is gone before its resend step ran; a second one (another instance, a restart) takes over.
  const other = await createTestApp({ storage: context.storage });
  assert.is(await other.app.processResendRequests(), 1);
  assert.is(await context.t.app.processResendRequests(), 0);
  assert.equal((await resendMails(context)).map((m) => [m.kind, m.to]), [['resend', 'bea@example.com']]);
});

test('3 mails per address a day: the 4th request gets the same 202 and mails nothing', async (context) => {
  await buy(context, 'cy@example.com');
  const answers = [];
  for (const client of ['203.0.113.40', '203.0.113.41', '203.0.113.42', '203.0.113.43']) answers.push(await answered(context, 'cy@example.com', client));
  for (const answer of answers) assert.equal([answer.status, answer.body], [202, JSON.stringify(RESEND_ACCEPTED)]);
  assert.equal(answers[3]!.calls, ['rateLimits.hit', 'rateLimits.hit', 'rateLimits.hit']);
  assert.is(await context.t.app.processResendRequests(), 3);
  assert.is((await resendMails(context)).length, 3);
});

test.run();
