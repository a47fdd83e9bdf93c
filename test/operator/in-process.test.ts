// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * The operator operations in process, with no socket: every declared operation (core/operator/endpoints.ts)
 * called through the operator app's `handle`, as the public contract's in-process tier calls the public
 * one. Each success answer must parse with the operation's output schema, and each refusal's code must be
 * one the operation declares (or one every operator request may get). The last test checks that the
 * cases below call every operation and provoke every error code an operation declares, so a new
 * operation or a new declared error cannot go untested here.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import type { App } from '../../core/app.ts';
import { OPERATOR_OPERATIONS } from '../../core/operator/endpoints.ts';
import { errorsOf } from '../../core/operator/openapi.ts';
import type { AnyOperatorOperation } from '../../core/operator/operation.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases, pgliteSchema } from '../_databases.ts';
import { withOldMerge } from '../_old-merge.ts';
import { LOCAL_RECEIVERS } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type { UpdateFile } from '../../core/ports/update-files.ts';
import { buildRoot, createTufSigner, envelopeText, signEnvelope } from '../../core/tuf/index.ts';

const TOKEN = 'in-process-0123456789-'.padEnd(40, 't');
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface Context {
  test: TestApp;
  operator: NonNullable<App['operator']>;
}
const test = suite<Context>('operator operations in process', {} as Context);

/** What the cases saw: the operations called, and the codes each answered with. */
const seen = new Map<string, Set<string>>();

test.after(closeTestDatabases);
test.before.each(async (context) => {
  context.test = await createTestApp({ operatorToken: TOKEN });
  context.operator = context.test.app.operator!;
});

/** The declared operation of a method and path template. */
function operationOf(method: string, template: string): AnyOperatorOperation {
  const operation = OPERATOR_OPERATIONS.find((op) => op.method === method && op.path === template);
  if (!operation) throw new Error(`no operator operation ${method} ${template}`);
  return operation;
}

/**
 * Calls an operation and checks its answer against its declaration.
 *
 * @returns The answer's status and JSON body.
 */
async function call({ operator }: Context, method: string, template: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const operation = operationOf(method, template);
  const [pathOnly, query] = path.split('?');
  const response = await operator.handle(
    coreRequest({ method, path: pathOnly!, ...(query ? { query } : {}), headers: AUTH, ...(json === undefined ? {} : { json }) }),
  );
  const body = bodyJson(response) as any;
  const codes = seen.get(operation.operationId) ?? new Set<string>();
  seen.set(operation.operationId, codes);
  if (response.status < 400) {
    assert.is(response.status, operation.status, `${method} ${path}`);
    const parsed = v.safeParse(operation.output, body);
    assert.ok(parsed.success, `${operation.operationId}: ${JSON.stringify(parsed.issues?.[0]?.message)} in ${bodyText(response)}`);
    codes.add(String(response.status));
  } else {
    const declared = errorsOf(operation).get(response.status) ?? [];
    assert.ok(declared.includes(body.code), `${operation.operationId} answered ${response.status} ${body.code}, declared: ${declared.join(', ')}`);
    assert.equal(Object.keys(body), ['code', 'message', 'resolution']);
    codes.add(body.code);
  }
  return { status: response.status, body };
}

/** A checkout paid in the simulator, in process. */
async function paidSession({ test: t }: Context): Promise<string> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product: 'standard' } }));
  const { sessionId } = bodyJson(created) as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const paid = await t.app.handle(
    coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: 'email=ada%40example.com' }),
  );
  assert.is(paid.status, 303);
  // The keys are issued when the payment is first seen: the status poll a website or the app makes.
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }))).status, 200);
  return sessionId;
}

test('releases: publish, list, widen, pull; a second publish of a version and an unknown version are refused', async (context) => {
  const release = { version: '2.5.0', msiUrl: 'https://example.com/2.5.0.msi', rolloutPercent: 10 };
  assert.is((await call(context, 'POST', '/releases', '/releases', release)).status, 201);
  assert.is((await call(context, 'POST', '/releases', '/releases', release)).body.code, 'release_exists');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...release, rolloutPercent: 101 })).body.code, 'invalid_request');
  assert.is((await call(context, 'POST', '/releases/:version/rollout', '/releases/2.5.0/rollout', { rolloutPercent: 50 })).body.rolloutPercent, 50);
  assert.is((await call(context, 'POST', '/releases/:version/rollout', '/releases/9.9.9/rollout', { rolloutPercent: 50 })).body.code, 'release_not_found');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...release, version: '2.4.0' })).body.code, 'release_not_higher');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...release, version: '2.5.0.1' })).body.code, 'release_same_msi_version');
  assert.ok((await call(context, 'POST', '/releases/:version/pull', '/releases/2.5.0/pull')).body.pulledAt);
  assert.is((await call(context, 'POST', '/releases/:version/rollout', '/releases/2.5.0/rollout', { rolloutPercent: 60 })).body.code, 'release_pulled');
  assert.is((await call(context, 'POST', '/releases/:version/pull', '/releases/9.9.9/pull')).body.code, 'release_not_found');
  assert.is((await call(context, 'POST', '/releases/:version/pull', '/releases/%E0%A4/pull')).body.code, 'invalid_path');
  assert.equal((await call(context, 'GET', '/releases', '/releases')).body.releases.map((r: { version: string }) => r.version), ['2.5.0']);
  assert.is((await call(context, 'POST', '/releases/:version/restore', '/releases/2.5.0/restore')).body.pulledAt, null);
  assert.is((await call(context, 'POST', '/releases/:version/restore', '/releases/3.0.0/restore')).body.code, 'release_not_found');
  assert.is((await call(context, 'POST', '/releases/:version/resume', '/releases/2.5.0/resume')).body.code, 'release_not_halted');
  assert.is((await call(context, 'POST', '/releases/:version/resume', '/releases/3.0.0/resume')).body.code, 'release_not_found');
  const ramp = { steps: [5, 100], everyMinutes: 60 };
  assert.equal((await call(context, 'POST', '/releases', '/releases', { ...release, version: '2.6.0', rolloutPercent: 5, ramp })).body.ramp.steps, [5, 100]);
  assert.is(
    (await call(context, 'POST', '/releases', '/releases', { ...release, version: '2.7.0', rolloutPercent: 5, ramp: { ...ramp, steps: [5, 5] } })).body.code,
    'invalid_request',
  );
  await context.test.storage.change((tx) => tx.releases.haltRelease('2.6.0', context.test.clock.now(), 'a test halt'));
  assert.is((await call(context, 'POST', '/releases/:version/resume', '/releases/2.6.0/resume')).body.haltedAt, null);
  const beta = { ...release, version: '2.8.0', channel: 'beta', rolloutPercent: 100 };
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...beta, channel: 'nightly' })).body.code, 'channel_not_found');
  assert.is((await call(context, 'POST', '/releases', '/releases', beta)).body.channel, 'beta');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...beta, version: '2.7.5' })).body.code, 'release_not_higher');
  const promote = (version: string, json: unknown) => call(context, 'POST', '/releases/:version/promote', `/releases/${version}/promote`, json);
  assert.is((await promote('2.6.0', { channel: 'beta' })).body.code, 'channel_not_more_stable');
  assert.is((await promote('2.6.0', { channel: 'nightly' })).body.code, 'channel_not_found');
  assert.is((await promote('9.9.9', { channel: 'stable' })).body.code, 'release_not_found');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...beta, version: '2.9.0', channel: 'stable' })).status, 201);
  assert.is((await promote('2.8.0', { channel: 'stable' })).body.code, 'release_not_higher', 'stable lists 2.9.0 above it');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...beta, version: '3.0.0' })).status, 201);
  assert.ok((await call(context, 'POST', '/releases/:version/pull', '/releases/3.0.0/pull')).body.pulledAt);
  assert.is((await promote('3.0.0', { channel: 'stable' })).body.code, 'release_pulled');
  assert.is((await call(context, 'POST', '/releases', '/releases', { ...beta, version: '3.1.0' })).status, 201);
  assert.is((await promote('3.1.0', { channel: 'stable', rolloutPercent: 5 })).body.rolloutBasisPoints, 500);
});

test('roadmap: create, edit, merge; unknown, merged, hidden and self targets are refused', async (context) => {
  const a = (await call(context, 'POST', '/roadmap', '/roadmap', { title: 'A', category: 'formats' })).body;
  const b = (await call(context, 'POST', '/roadmap', '/roadmap', { title: 'B', category: 'formats' })).body;
  const hidden = (await call(context, 'POST', '/roadmap', '/roadmap', { title: 'H', category: 'app', visible: false })).body;
  assert.is((await call(context, 'PATCH', '/roadmap/:id', `/roadmap/${a.id}`, { title: 'A2' })).body.title, 'A2');
  assert.is((await call(context, 'PATCH', '/roadmap/:id', '/roadmap/99999', { title: 'x' })).body.code, 'feature_not_found');
  // release_version names a release clients can have: the baseline (2.4.1), history below it, a live release.
  assert.is((await call(context, 'POST', '/roadmap', '/roadmap', { title: 'N', category: 'formats', release_version: '9.9.9' })).body.code, 'release_not_live');
  for (const version of ['2.4.1', '2.3.0']) {
    assert.is((await call(context, 'PATCH', '/roadmap/:id', `/roadmap/${a.id}`, { release_version: version })).body.release_version, version);
  }
  const refused = await call(context, 'PATCH', '/roadmap/:id', `/roadmap/${a.id}`, { release_version: '2.7.0' });
  assert.equal([refused.status, refused.body.message], [409, 'Version 2.7.0 is not a published release (the baseline is 2.4.1): no client can install it.']);
  await call(context, 'POST', '/releases', '/releases', { version: '2.7.0', msiUrl: 'https://downloads.example.com/2.7.0.msi', rolloutPercent: 10 });
  assert.is((await call(context, 'PATCH', '/roadmap/:id', `/roadmap/${a.id}`, { release_version: '2.7.0' })).body.release_version, '2.7.0');
  await call(context, 'POST', '/releases/:version/pull', '/releases/2.7.0/pull');
  assert.is(
    (await call(context, 'PATCH', '/roadmap/:id', `/roadmap/${b.id}`, { release_version: '2.7.0' })).body.message,
    'Version 2.7.0 is pulled: no client can install it.',
  );
  assert.is((await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${a.id}/merge`, { into: a.id })).body.code, 'merge_into_itself');
  assert.is((await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${a.id}/merge`, { into: 99999 })).body.code, 'feature_not_found');
  assert.is((await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${a.id}/merge`, { into: hidden.id })).body.code, 'merge_target_hidden');
  assert.is((await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${a.id}/merge`, { into: b.id })).body.movedVotes, 0);
  assert.is((await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${a.id}/merge`, { into: b.id })).body.code, 'feature_already_merged');
  const listed = (await call(context, 'GET', '/roadmap', '/roadmap')).body.features;
  assert.ok(listed.some((f: { id: number; merged_into: number | null }) => f.id === a.id && f.merged_into === b.id));
  const byVotes = (await call(context, 'GET', '/roadmap', '/roadmap?sort=votes')).body.features;
  assert.equal(byVotes.map((f: { id: number }) => f.id).sort(), listed.map((f: { id: number }) => f.id).sort());
  assert.is((await call(context, 'GET', '/roadmap', '/roadmap?sort=title')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/roadmap', '/roadmap?sort=votes&sort=id')).body.code, 'invalid_query');
});

test('roadmap: unmerge; unknown, unmerged and target-merged features, and a merge older than migration 29, are refused', async (context) => {
  const made: number[] = [];
  for (const title of ['A', 'B', 'C']) made.push((await call(context, 'POST', '/roadmap', '/roadmap', { title, category: 'formats' })).body.id);
  const [first, second, third] = made as [number, number, number];
  assert.is((await call(context, 'POST', '/roadmap/:id/unmerge', '/roadmap/99999/unmerge')).body.code, 'feature_not_found');
  assert.equal((await call(context, 'PUT', '/roadmap/:id/requester-mails', `/roadmap/${first}/requester-mails`, { enabled: false })).body, {
    id: first,
    enabled: false,
  });
  assert.is((await call(context, 'PUT', '/roadmap/:id/requester-mails', '/roadmap/99999/requester-mails', { enabled: true })).body.code, 'feature_not_found');
  assert.is((await call(context, 'POST', '/roadmap/:id/unmerge', `/roadmap/${first}/unmerge`)).body.code, 'feature_not_merged');
  await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${first}/merge`, { into: second });
  await call(context, 'POST', '/roadmap/:id/merge', `/roadmap/${second}/merge`, { into: third });
  const blocked = await call(context, 'POST', '/roadmap/:id/unmerge', `/roadmap/${first}/unmerge`);
  assert.equal([blocked.status, blocked.body.code, blocked.body.message], [
    409,
    'unmerge_target_merged',
    `Feature ${second}, which ${first} was merged into, is merged into feature ${third} now.`,
  ]);
  assert.equal((await call(context, 'POST', '/roadmap/:id/unmerge', `/roadmap/${second}/unmerge`)).body.shown.visible, true);
  const undone = (await call(context, 'POST', '/roadmap/:id/unmerge', `/roadmap/${first}/unmerge`)).body;
  assert.equal([undone.shown.id, undone.shown.merged_into, undone.from.id, undone.restoredVotes], [first, null, second, 0]);
  const { client, drop } = await pgliteSchema();
  try {
    await withOldMerge(client);
    const old = await createTestApp({ operatorToken: TOKEN, storage: createSqlStorage(client) });
    const refused = await call({ test: old, operator: old.app.operator! }, 'POST', '/roadmap/:id/unmerge', '/roadmap/102/unmerge');
    assert.equal([refused.status, refused.body.code, refused.body.message], [
      409,
      'merge_not_recorded',
      'Feature 102 was merged into feature 101 before merges recorded the votes they move: it cannot be unmerged.',
    ]);
  } finally {
    await drop();
  }
});

test('feedback: the inbox and its filters; marking an entry handled; a repeated query parameter is refused', async (context) => {
  const sent = await context.test.app.handle(
    coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description: 'Works', type: 'review', rating: 5 } }),
  );
  assert.is(sent.status, 201);
  const listed = (await call(context, 'GET', '/feedback', '/feedback', undefined)).body;
  assert.is(listed.entries.length, 1);
  assert.is((await call(context, 'GET', '/feedback', '/feedback?type=review&type=bug_report')).body.code, 'invalid_query');
  assert.is((await call(context, 'GET', '/feedback', '/feedback?limit=0')).body.code, 'invalid_request');
  assert.ok((await call(context, 'POST', '/feedback/:id/handled', `/feedback/${listed.entries[0].id}/handled`, { handled: true })).body.handledAt);
  assert.is((await call(context, 'POST', '/feedback/:id/handled', '/feedback/424242/handled', { handled: true })).body.code, 'feedback_not_found');
  assert.is((await call(context, 'GET', '/feedback', '/feedback?search=WORKS')).body.entries.length, 1);
  assert.is((await call(context, 'GET', '/feedback', '/feedback?search=%20')).body.code, 'invalid_request');
  const bulk = await call(context, 'POST', '/feedback/handled', '/feedback/handled', { ids: [listed.entries[0].id, 424242] });
  assert.equal(bulk.body, { marked: [], alreadyHandled: 1, notFound: 1 });
  assert.is((await call(context, 'POST', '/feedback/handled', '/feedback/handled', { ids: [] })).body.code, 'invalid_request');
  const id = listed.entries[0].id;
  assert.equal((await call(context, 'PUT', '/feedback/:id/feature', `/feedback/${id}/feature`, { featureId: 2 })).body, { id, featureId: 2, changed: true });
  assert.is((await call(context, 'PUT', '/feedback/:id/feature', '/feedback/424242/feature', { featureId: 2 })).body.code, 'feedback_not_found');
  assert.is((await call(context, 'PUT', '/feedback/:id/feature', `/feedback/${id}/feature`, { featureId: 999 })).body.code, 'feature_not_found');
  assert.equal((await call(context, 'POST', '/feedback/feature', '/feedback/feature', { ids: [id, 424242], featureId: null })).body, {
    linked: [id],
    unchanged: 0,
    notFound: 1,
  });
  assert.is((await call(context, 'POST', '/feedback/feature', '/feedback/feature', { ids: [id], featureId: 999 })).body.code, 'feature_not_found');
});

test('webhooks: add, edit, list; deliveries and a replay; unknown ids and refused addresses', async (context) => {
  assert.is((await call(context, 'POST', '/webhooks', '/webhooks', { url: 'http://127.0.0.1:9/hook' })).body.code, 'webhook_address_refused');
  const local = await createTestApp({ operatorToken: TOKEN, webhookAddresses: LOCAL_RECEIVERS });
  context.test = local;
  context.operator = local.app.operator!;
  const added = (await call(context, 'POST', '/webhooks', '/webhooks', { url: 'http://127.0.0.1:9/hook' })).body;
  assert.match(added.secret, /^whsec_/);
  assert.is((await call(context, 'PATCH', '/webhooks/:id', `/webhooks/${added.id}`, { enabled: false })).body.enabled, false);
  assert.is((await call(context, 'PATCH', '/webhooks/:id', '/webhooks/777', { enabled: false })).body.code, 'endpoint_not_found');
  const moved = await call(context, 'PATCH', '/webhooks/:id', `/webhooks/${added.id}`, { url: 'http://127.0.0.2:9/hook' });
  assert.is(moved.body.code, 'webhook_address_refused');
  assert.is((await call(context, 'GET', '/webhooks', '/webhooks')).body.endpoints.length, 1);
  assert.equal((await call(context, 'GET', '/webhooks/deliveries', '/webhooks/deliveries?state=failed')).body, { deliveries: [], next: null });
  assert.is((await call(context, 'GET', '/webhooks/deliveries', '/webhooks/deliveries?state=lost')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/webhooks/deliveries', '/webhooks/deliveries?limit=1&limit=2')).body.code, 'invalid_query');
  assert.is((await call(context, 'POST', '/webhooks/deliveries/:id/replay', '/webhooks/deliveries/5/replay')).body.code, 'delivery_not_found');
  assert.is((await call(context, 'POST', '/webhooks/:id/test', `/webhooks/${added.id}/test`)).body.code, 'endpoint_disabled');
  await call(context, 'PATCH', '/webhooks/:id', `/webhooks/${added.id}`, { enabled: true });
  const tested = await call(context, 'POST', '/webhooks/:id/test', `/webhooks/${added.id}/test`);
  assert.equal([tested.status, tested.body.type, tested.body.state], [202, 'webhook.test', 'pending']);
  assert.is((await call(context, 'POST', '/webhooks/:id/test', '/webhooks/777/test')).body.code, 'endpoint_not_found');
  const rotated = (await call(context, 'POST', '/webhooks/:id/rotate-secret', `/webhooks/${added.id}/rotate-secret`, { graceHours: 2 })).body;
  assert.match(rotated.secret, /^whsec_/);
  assert.is.not(rotated.secret, added.secret);
  assert.is(rotated.previousSecretValidUntil, new Date(context.test.clock.now() + 2 * 3_600_000).toISOString());
  assert.is(
    (await call(context, 'POST', '/webhooks/:id/rotate-secret', `/webhooks/${added.id}/rotate-secret`, { graceHours: 25 })).body.code,
    'invalid_request',
  );
  assert.is((await call(context, 'POST', '/webhooks/:id/rotate-secret', '/webhooks/777/rotate-secret')).body.code, 'endpoint_not_found');
  assert.equal((await call(context, 'POST', '/webhooks/deliveries/replay-failed', '/webhooks/deliveries/replay-failed')).body, { replayed: 0, remaining: 0 });
  assert.is(
    (await call(context, 'POST', '/webhooks/deliveries/replay-failed', '/webhooks/deliveries/replay-failed', { endpointId: 0 })).body.code,
    'invalid_request',
  );
  const deleted = (await call(context, 'DELETE', '/webhooks/:id', `/webhooks/${added.id}`)).body;
  assert.equal([deleted.deleted.id, deleted.droppedDeliveries], [added.id, 1]);
  assert.is((await call(context, 'DELETE', '/webhooks/:id', `/webhooks/${added.id}`)).body.code, 'endpoint_not_found');
});

test('orders: find, show, upgrade, revoke, reinstate, reconcile; unknown and unpaid sessions are refused', async (context) => {
  const session = await paidSession(context);
  assert.is((await call(context, 'GET', '/orders', '/orders?email=ADA@example.com')).body.orders[0].session, session);
  assert.is((await call(context, 'GET', '/orders/:session', `/orders/${session}`)).body.licenses, 'valid');
  assert.is((await call(context, 'GET', '/orders/:session', '/orders/cs_unknown')).body.code, 'order_not_found');
  const unpaid = bodyJson(await context.test.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: {} }))) as { sessionId: string };
  assert.is((await call(context, 'POST', '/orders/:session/upgrade', `/orders/${unpaid.sessionId}/upgrade`)).body.code, 'order_not_paid');
  assert.is((await call(context, 'POST', '/orders/:session/revoke', `/orders/${unpaid.sessionId}/revoke`, {})).body.code, 'order_not_paid');
  for (const action of ['upgrade', 'revoke', 'reinstate']) {
    assert.is(
      (await call(context, 'POST', `/orders/:session/${action}`, `/orders/cs_unknown/${action}`, action === 'upgrade' ? undefined : {})).body.code,
      'order_not_found',
    );
  }
  assert.is((await call(context, 'POST', '/orders/:session/reinstate', `/orders/${unpaid.sessionId}/reinstate`, {})).body.code, 'order_not_paid');
  assert.is((await call(context, 'POST', '/orders/:session/upgrade', `/orders/${session}/upgrade`)).body.keys.length, 2);
  assert.is((await call(context, 'POST', '/orders/:session/revoke', `/orders/${session}/revoke`, { reason: 'chargeback' })).body.licenses, 'revoked');
  assert.is((await call(context, 'POST', '/orders/:session/upgrade', `/orders/${session}/upgrade`)).body.code, 'order_revoked');
  assert.is((await call(context, 'POST', '/orders/:session/reinstate', `/orders/${session}/reinstate`)).body.licenses, 'valid');
  assert.is((await call(context, 'POST', '/orders/reconcile', '/orders/reconcile')).body.alreadyFulfilled, 1);
  assert.is((await call(context, 'GET', '/orders', '/orders?email=a@b.c&email=d@e.f')).body.code, 'invalid_query');
  const key = (await call(context, 'GET', '/orders/:session', `/orders/${session}`)).body.keys[0].key;
  assert.is((await call(context, 'GET', '/orders', `/orders?key=${encodeURIComponent(`  ${key}\n`)}`)).body.orders[0].session, session);
  assert.equal((await call(context, 'GET', '/orders/export', '/orders/export')).body.entries.map((r: { sessionId: string }) => r.sessionId), [session]);
  assert.is((await call(context, 'GET', '/orders/export', '/orders/export?since=yesterday')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/orders/export', '/orders/export?limit=1&limit=2')).body.code, 'invalid_query');
});

test('licenses: which versions a key, an order or an email may install; none given, two given and no such license are refused', async (context) => {
  const session = await paidSession(context);
  const key = (await call(context, 'GET', '/orders/:session', `/orders/${session}`)).body.keys[0].key;
  await call(context, 'POST', '/releases', '/releases', { version: '2.5.0', msiUrl: 'https://example.com/2.5.0.msi', rolloutPercent: 100 });
  const byKey = (await call(context, 'GET', '/licenses/updates', `/licenses/updates?key=${encodeURIComponent(key)}`)).body;
  assert.equal([byKey.licenses, byKey.updatesUntil, byKey.releases.map((r: { verdict: string }) => r.verdict)], ['valid', null, ['covered']]);
  assert.is((await call(context, 'GET', '/licenses/updates', `/licenses/updates?session=${session}`)).body.keys.length, 1);
  assert.is((await call(context, 'GET', '/licenses/updates', '/licenses/updates?email=ADA@example.com')).body.keys[0].key, key);
  assert.is((await call(context, 'GET', '/licenses/updates', '/licenses/updates')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/licenses/updates', `/licenses/updates?session=${session}&email=ada@example.com`)).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/licenses/updates', '/licenses/updates?email=a@b.c&email=d@e.f')).body.code, 'invalid_query');
  assert.is((await call(context, 'GET', '/licenses/updates', '/licenses/updates?email=nobody@example.com')).body.code, 'license_not_found');
  assert.is((await call(context, 'GET', '/licenses/updates', '/licenses/updates?session=cs_unknown')).body.code, 'license_not_found');
  assert.is((await call(context, 'GET', '/licenses/updates', `/licenses/updates?session=${session}&channel=nightly`)).body.code, 'channel_not_found');
  assert.is(
    (await call(context, 'GET', '/licenses/updates', `/licenses/updates?key=${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`)).body.code,
    'license_not_found',
  );
});

test("an order's mails: listed (mail off), resent once per request; unknown, unpaid, revoked and address-less orders are refused", async (context) => {
  const session = await paidSession(context);
  const listed = (await call(context, 'GET', '/orders/:session/mails', `/orders/${session}/mails`)).body;
  assert.equal([listed.mailOn, listed.mails.map((m: { kind: string; state: string; to: string }) => [m.kind, m.state, m.to])], [false, [[
    'keys',
    'pending',
    'ada@example.com',
  ]]]);
  assert.is((await call(context, 'GET', '/orders/:session/mails', '/orders/cs_unknown/mails')).body.code, 'order_not_found');
  const resent = await call(context, 'POST', '/orders/:session/resend', `/orders/${session}/resend`);
  assert.equal([resent.status, resent.body.kind, resent.body.to, resent.body.state], [202, 'resend', 'ada@example.com', 'pending']);
  assert.is((await call(context, 'GET', '/orders/:session/mails', `/orders/${session}/mails`)).body.mails.length, 2);
  assert.is((await call(context, 'POST', '/orders/:session/resend', '/orders/cs_unknown/resend')).body.code, 'order_not_found');
  const unpaid = bodyJson(await context.test.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: {} }))) as { sessionId: string };
  assert.is((await call(context, 'POST', '/orders/:session/resend', `/orders/${unpaid.sessionId}/resend`)).body.code, 'order_not_paid');
  await call(context, 'POST', '/orders/:session/revoke', `/orders/${session}/revoke`, {});
  assert.is((await call(context, 'POST', '/orders/:session/resend', `/orders/${session}/resend`)).body.code, 'order_revoked');
  const created = await context.test.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: {} }));
  const { sessionId: anonymous } = bodyJson(created) as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await context.test.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${anonymous}/pay`, headers: form, body: 'email=' }));
  await context.test.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${anonymous}` }));
  assert.is((await call(context, 'POST', '/orders/:session/resend', `/orders/${anonymous}/resend`)).body.code, 'order_without_email');
});

test('failed mails: listed, one sent again once an hour; a sent one, no such mail and a retry within the hour are refused', async (context) => {
  const session = await paidSession(context);
  const storage = context.test.storage;
  const now = context.test.clock.now();
  const [keys] = await storage.mail.claimDue(now, 60_000, 10);
  await storage.mail.recordAttempt(keys!.id, { at: now, error: '550 no such user', sent: false, nextAttemptAt: null });
  const listed = (await call(context, 'GET', '/mails', '/mails')).body;
  assert.equal(listed.mails.map((m: { session: string; state: string }) => [m.session, m.state]), [[session, 'failed']]);
  assert.is((await call(context, 'GET', '/mails', '/mails?limit=0')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/mails', '/mails?limit=1&limit=2')).body.code, 'invalid_query');
  const retried = await call(context, 'POST', '/mails/:id/retry', `/mails/${keys!.id}/retry`);
  assert.equal([retried.status, retried.body.state], [202, 'pending']);
  await storage.mail.claimDue(now, 60_000, 10);
  await storage.mail.recordAttempt(keys!.id, { at: now, error: '550 again', sent: false, nextAttemptAt: null });
  assert.is((await call(context, 'POST', '/mails/:id/retry', `/mails/${keys!.id}/retry`)).body.code, 'mail_retried_recently');
  const resent = await call(context, 'POST', '/orders/:session/resend', `/orders/${session}/resend`);
  const [due] = await storage.mail.claimDue(now, 60_000, 10);
  await storage.mail.recordAttempt(due!.id, { at: now, error: null, sent: true, nextAttemptAt: null });
  assert.is((await call(context, 'POST', '/mails/:id/retry', `/mails/${resent.body.id}/retry`)).body.code, 'mail_not_failed');
  assert.is((await call(context, 'POST', '/mails/:id/retry', '/mails/999999/retry')).body.code, 'mail_not_found');
});

test('reconcile with a gateway that cannot list its paid sessions is refused', async () => {
  const t = await createTestApp({ operatorToken: TOKEN });
  const { listPaid: _, ...gateway } = t.gateway;
  const without = await createTestApp({ operatorToken: TOKEN, gateway });
  assert.is(
    (await call({ test: without, operator: without.app.operator! }, 'POST', '/orders/reconcile', '/orders/reconcile', {})).body.code,
    'reconcile_unavailable',
  );
});

test('stats and the audit trail', async (context) => {
  await call(context, 'POST', '/roadmap', '/roadmap', { title: 'A', category: 'formats' });
  assert.is((await call(context, 'GET', '/stats', '/stats?days=7')).body.downloads.days.length, 7);
  assert.is((await call(context, 'GET', '/stats', '/stats?days=366')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/stats', '/stats?days=1&days=2')).body.code, 'invalid_query');
  assert.equal((await call(context, 'GET', '/audit', '/audit')).body.entries.map((e: { action: string; actor: string }) => [e.actor, e.action]), [[
    'operator',
    'roadmap.created',
  ]]);
  assert.equal((await call(context, 'GET', '/audit', '/audit?action=roadmap.&actor=operator&limit=1')).body.next, 1);
  assert.is((await call(context, 'GET', '/audit', '/audit?actor=Ada')).body.code, 'invalid_request');
  assert.is((await call(context, 'GET', '/audit', '/audit?limit=1&limit=2')).body.code, 'invalid_query');
});

test("update roots: published and read; an unknown channel, a bad root, a root without the server's online key, a repeated version", async (context) => {
  const rootKey = await createTufSigner(await generateSigningKey());
  const online = await createTufSigner(await generateSigningKey());
  const rootFile = async (version: number, onlineKey = online.key) =>
    JSON.parse(
      envelopeText(
        await signEnvelope(await buildRoot({ version, expires: context.test.clock.now() + 86_400_000, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey }), [
          rootKey,
        ]),
      ),
    );
  assert.is((await call(context, 'POST', '/update-roots/:channel', '/update-roots/stable', await rootFile(1))).body.code, 'root_online_key_unknown');
  const signing = await createTestApp({ operatorToken: TOKEN, updates: { signer: online } });
  const withKey = { test: signing, operator: signing.app.operator! };
  assert.is((await call(withKey, 'POST', '/update-roots/:channel', '/update-roots/nightly', await rootFile(1))).body.code, 'channel_not_found');
  assert.is((await call(withKey, 'GET', '/update-files/:channel', '/update-files/nightly')).body.code, 'channel_not_found');
  assert.is((await call(withKey, 'POST', '/update-roots/:channel', '/update-roots/stable', await rootFile(2))).body.code, 'invalid_root');
  const stranger = (await createTufSigner(await generateSigningKey())).key;
  assert.is((await call(withKey, 'POST', '/update-roots/:channel', '/update-roots/stable', await rootFile(1, stranger))).body.code, 'root_online_key_unknown');
  assert.is((await call(withKey, 'POST', '/update-roots/:channel', '/update-roots/stable', await rootFile(1))).body.version, 1);
  assert.is((await call(withKey, 'GET', '/update-files/:channel', '/update-files/stable')).body.roles.root.version, 1);
  // Another request stored version 2 between this one's read of the newest root and its insert.
  const racing = await rootFile(2);
  const { storage } = signing;
  const change = storage.change.bind(storage);
  storage.change = (work) =>
    change((tx) => {
      const put = tx.updateFiles.putUpdateFile.bind(tx.updateFiles);
      const updateFiles = Object.assign(Object.create(tx.updateFiles), { putUpdateFile: async (file: UpdateFile) => (await put(file), put(file)) });
      return work(Object.assign(Object.create(tx), { updateFiles }));
    });
  assert.is((await call(withKey, 'POST', '/update-roots/:channel', '/update-roots/stable', racing)).body.code, 'root_version_exists');
});

test('every operation is called above, and every error it declares is provoked', () => {
  const missing: string[] = [];
  for (const operation of OPERATOR_OPERATIONS) {
    const codes = seen.get(operation.operationId);
    if (!codes) missing.push(`${operation.operationId}: never called`);
    else for (const code of operation.errors) if (!codes.has(code)) missing.push(`${operation.operationId}: ${code} never answered`);
  }
  assert.equal(missing, []);
});

test.run();
