/**
 * Storage budgets (issue 20, item 6), in process (app.handle) on memory, PGlite and PostgreSQL, time from the
 * app's manual clock (2026-11-21T12:00Z): feedback bytes per client per UTC day and in total, open
 * checkout sessions in total, and each client's share of what the others left, so that a few addresses
 * cannot take a whole cap while a bystander is still served. Every refusal is 429 with Retry-After and a
 * resolution that says when retrying helps; nothing refused is stored.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Budgets } from '../../core/budgets/budgets.ts';
import { closeTestDatabases } from '../_databases.ts';
import type { HttpResult } from '../_setup.ts';
import { type InProcessStorageServer, startInProcessStorageServer } from '../_storage-server.ts';
import { ALL_TARGETS } from '../storage/_targets.ts';

const HOUR = 3600 * 1000;
/** 256 bytes for the row and 744 of text: 1,000 bytes of the budget. */
const KB_ENTRY = { description: 'x'.repeat(744) };
const MIDNIGHT = '2026-11-22T00:00:00.000Z';
const UNTIL_MIDNIGHT = String(12 * 3600);
const AT_MIDNIGHT = `Retry after ${MIDNIGHT}, when the daily budget resets (Retry-After gives the seconds).`;

for (const target of ALL_TARGETS) {
  const test = suite(`storage budgets on ${target.name}`);

  const serve = (budgets: Partial<Budgets>, openCheckoutsPerClient = 10) => startInProcessStorageServer(target, { budgets, openCheckoutsPerClient });
  const post = (server: InProcessStorageServer, path: string, body: unknown, from: string) =>
    server.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from });
  const feedback = (server: InProcessStorageServer, from: string, body: unknown = KB_ENTRY) => post(server, '/api/v1/feedback', body, from);
  const stored = async (server: InProcessStorageServer) => (await server.opened.storage.inbox.list({ limit: 500 })).length;
  const refusedWith = (answer: HttpResult, body: unknown, retryAfter: string) => {
    assert.is(answer.status, 429);
    assert.equal(answer.json(), body);
    assert.is(answer.headers['retry-after'], retryAfter);
    assert.is(answer.headers['content-type'], 'application/json');
    assert.match(answer.headers['ratelimit'] ?? '', /^"public-api";r=\d+;t=\d+$/);
  };

  test(`${target.name}: a client's feedback past its daily bytes is 429 too_much_feedback until the UTC day ends; others are served`, async () => {
    const server = await serve({ feedbackBytesPerClientPerDay: 2000, clientSharePercent: 100 });
    try {
      for (let i = 0; i < 2; i++) assert.is((await feedback(server, '127.0.0.2')).status, 201);
      refusedWith(
        await feedback(server, '127.0.0.2'),
        {
          code: 'too_much_feedback',
          message: "This address sent 2000 bytes of feedback today (UTC); this entry's 1000 would pass its daily budget of 2000 bytes.",
          resolution: AT_MIDNIGHT,
        },
        UNTIL_MIDNIGHT,
      );
      assert.is((await feedback(server, '127.0.0.3')).status, 201);
      assert.is(await stored(server), 3);
      server.clock.advance(12 * HOUR);
      assert.is((await feedback(server, '127.0.0.2')).status, 201, 'a new day, a new budget');
      assert.is(await stored(server), 4);
    } finally {
      await server.close();
    }
  });

  test(`${target.name}: the day's total is 429 budget_exhausted for everyone until the UTC day ends`, async () => {
    const server = await serve({ feedbackBytesPerDay: 3000, clientSharePercent: 100 });
    try {
      for (const from of ['127.0.1.1', '127.0.1.2', '127.0.1.3']) assert.is((await feedback(server, from)).status, 201);
      server.clock.advance(6 * HOUR);
      refusedWith(
        await feedback(server, '127.0.1.4'),
        {
          code: 'budget_exhausted',
          message: "The server takes no more feedback today (UTC): 3000 of the day's 3000 bytes are used, and this entry counts 1000. Nothing was stored.",
          resolution: AT_MIDNIGHT,
        },
        String(6 * 3600),
      );
      assert.is(await stored(server), 3);
      server.clock.advance(6 * HOUR);
      assert.is((await feedback(server, '127.0.1.4')).status, 201);
    } finally {
      await server.close();
    }
  });

  test(`${target.name}: five addresses flooding feedback take 7,000 of 10,000 bytes at a 25% share; a bystander is still served`, async () => {
    const server = await serve({ feedbackBytesPerDay: 10_000, clientSharePercent: 25 });
    try {
      const taken: number[] = [];
      for (const from of ['127.0.2.1', '127.0.2.2', '127.0.2.3', '127.0.2.4', '127.0.2.5']) {
        let accepted = 0;
        while ((await feedback(server, from)).status === 201) accepted++;
        taken.push(accepted);
      }
      // Each may hold 25% of what the others left: 2,500, 2,000, 1,500, 1,250, 1,000 bytes.
      assert.equal(taken, [2, 2, 1, 1, 1]);
      refusedWith(
        await feedback(server, '127.0.2.1'),
        {
          code: 'too_much_feedback',
          message: "This address sent 2000 bytes of feedback today (UTC); with this entry's 1000 it would pass its share, " +
            "1250 bytes (25% of what the other clients left of the day's 10000).",
          resolution: AT_MIDNIGHT,
        },
        UNTIL_MIDNIGHT,
      );
      assert.is((await feedback(server, '127.0.2.9', { description: 'Converts my .wk1 files well' })).status, 201);
      assert.is(await stored(server), 8);
    } finally {
      await server.close();
    }
  });

  test(`${target.name}: open checkout sessions past the total are 429 budget_exhausted until the first expires`, async () => {
    const server = await serve({ openCheckouts: 3, clientSharePercent: 100 });
    try {
      for (const from of ['127.0.3.1', '127.0.3.2']) assert.is((await post(server, '/api/v1/checkout/create', {}, from)).status, 200);
      server.clock.advance(HOUR);
      assert.is((await post(server, '/api/v1/checkout/create', {}, '127.0.3.3')).status, 200);
      server.clock.advance(HOUR);
      refusedWith(
        await post(server, '/api/v1/checkout/create', {}, '127.0.3.4'),
        {
          code: 'budget_exhausted',
          message: 'The server holds the most open checkout sessions it may (3); no session was opened.',
          resolution: 'Retry after 2026-11-22T12:00:00.000Z, when the first open checkout session of any client expires ' +
            '(one paid sooner frees a place sooner; Retry-After gives the seconds).',
        },
        String(22 * 3600),
      );
      server.clock.advance(22 * HOUR);
      assert.is((await post(server, '/api/v1/checkout/create', {}, '127.0.3.4')).status, 200, 'two expired: room again');
    } finally {
      await server.close();
    }
  });

  test(`${target.name}: one client holds at most its share of the open sessions the others left`, async () => {
    const server = await serve({ openCheckouts: 20, clientSharePercent: 25 });
    try {
      for (let i = 0; i < 5; i++) assert.is((await post(server, '/api/v1/checkout/create', {}, '127.0.4.1')).status, 200);
      refusedWith(
        await post(server, '/api/v1/checkout/create', {}, '127.0.4.1'),
        {
          code: 'too_many_checkouts',
          message: "This address has 5 unpaid checkout sessions open; its share now is 5: 25% of what the other clients left of the server's 20.",
          resolution:
            'Pay with a checkout session already opened, or retry after 2026-11-22T12:00:00.000Z, when the oldest one expires (Retry-After gives the seconds).',
        },
        String(24 * 3600),
      );
      assert.is((await post(server, '/api/v1/checkout/create', {}, '127.0.4.2')).status, 200, 'another client is served');
    } finally {
      await server.close();
    }
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
