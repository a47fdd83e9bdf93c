/**
 * Feedback over PGlite (the storage's `exclusive` mode). Budgets: each client's count lives in the
 * process, the day's total with the rows; a storage opened again goes on from the stored total and
 * starts each client from zero, as rate limits do (docs/deploy.md, "Storage budgets"). Events: the
 * process knows whether an endpoint is enabled, and a change made in the same turn as a submission is
 * seen by it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPgliteClient } from '../../adapters/pglite/index.ts';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { dayOf, feedbackBudgetBytes } from '../../core/budgets/budgets.ts';
import { ApiError } from '../../core/http/errors.ts';
import type { FeedbackBudget, FeedbackEntry } from '../../core/ports/ports.ts';
import { closeTestDatabases, pgliteClient } from '../_databases.ts';

const test = suite<{ client: SqlClient | null }>('feedback over PGlite', { client: null });

test.before.each(async (context) => {
  context.client = await pgliteClient();
  await migrate(context.client);
});

test.after.each(async (context) => {
  await context.client?.exec(`drop schema "${context.client.schema}" cascade`);
});

const T0 = Date.UTC(2026, 10, 25, 12);
const entry = (description: string): FeedbackEntry => ({ type: 'general', description, email: null, appVersion: null, rating: null, receivedAt: T0 });
// 256 + 10 bytes an entry: a client may add two a day, all clients together four.
const budget = (client: string, e: FeedbackEntry): FeedbackBudget => ({
  client,
  day: dayOf(T0),
  bytes: feedbackBudgetBytes(e),
  perClient: 2 * 266,
  total: 4 * 266,
  sharePercent: 100,
});
const add = (storage: ReturnType<typeof createSqlStorage>, client: string, description: string) =>
  storage.intake.addFeedback(entry(description), budget(client, entry(description)));

test('a storage opened again goes on from the stored total, and each client from zero', async ({ client }) => {
  const first = createSqlStorage(client!, { exclusive: {} });
  assert.equal(await Promise.all([add(first, 'a', 'entry 0001'), add(first, 'a', 'entry 0002'), add(first, 'a', 'entry 0003')]), [
    null,
    null,
    { reason: 'client', held: 532, spent: 532 },
  ]);
  assert.is(await add(first, 'b', 'entry 0004'), null);
  const rows = await client!.query<{ amount: string }>(`select amount::text from budget_spent where client = ''`);
  assert.equal(rows, [{ amount: '798' }]);

  const second = createSqlStorage(client!, { exclusive: {} });
  assert.is(await add(second, 'a', 'entry 0005'), null);
  assert.equal(await add(second, 'c', 'entry 0006'), { reason: 'total', held: 0, spent: 1064 });
  assert.is((await client!.query(`select id from feedback`)).length, 4);
});

test('a submission in the same turn as an endpoint change follows it: added, disabled, enabled again', async ({ client }) => {
  const storage = createSqlStorage(client!, { exclusive: {} });
  const submit = (description: string) => storage.intake.addFeedback({ ...entry(description), receivedAt: T0 });
  const hook = { url: 'http://127.0.0.1:9/a', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: [], format: 'standard' as const, createdAt: T0 };
  await submit('before any');
  const [added] = await Promise.all([storage.change((tx) => tx.outbox.addEndpoint(hook)), submit('after the add')]);
  await Promise.all([storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: false })), submit('while disabled')]);
  await Promise.all([storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: true })), submit('enabled again')]);
  const due = await storage.outbox.claimDue(T0, 20_000, 10);
  assert.equal(due.map((d) => (JSON.parse(d.body) as { data: { description: string } }).data.description).sort(), ['after the add', 'enabled again']);
});

test('a write refused for want of disk gives its count back: the client stores the entry once space returns', async () => {
  // The production failure: the disk reserve refuses the insert after the ledger counted the entry.
  let free = 1000;
  const client = await createPgliteClient({ diskReserve: { freeBytes: () => free, reserveBytes: 100 } });
  try {
    await migrate(client);
    const storage = createSqlStorage(client, { exclusive: {} });
    assert.is(await add(storage, 'a', 'entry 0001'), null);
    free = 99;
    const refused = await Promise.resolve()
      .then(() => add(storage, 'a', 'entry 0002'))
      .then(
        () => null,
        (error: unknown) => error,
      );
    assert.ok(refused instanceof ApiError && refused.code === 'storage_full', `refused with ${String(refused)}`);
    free = 1000;
    // Counted without being stored, the refused entry would have used a's second entry of the day.
    assert.is(await add(storage, 'a', 'entry 0002'), null);
    assert.equal(await add(storage, 'a', 'entry 0003'), { reason: 'client', held: 532, spent: 532 });
    assert.equal(await client.query(`select description from feedback order by id`), [{ description: 'entry 0001' }, { description: 'entry 0002' }]);
    assert.equal(await client.query(`select amount::text from budget_spent where client = ''`), [{ amount: '532' }]);
  } finally {
    await client.close();
  }
});

test.after(closeTestDatabases);
test.run();
