/**
 * The Inbox's CSV export over a real socket, streamed: every entry of a large inbox (1,200: three pages),
 * newest first; and an export that runs past its time limit is cut, so the client sees an incomplete
 * answer, never a file that looks whole. The clock moves by a storage that takes six minutes a page.
 */
import { request as httpRequest } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { EXPORT_TIME_LIMIT_MS } from '../../adapters/operator-pages/inbox-export.ts';
import { type OperatorServer, startOperatorServer } from '../_operator.ts';
import { signIn } from '../_pages.ts';
import { manualClock } from '../_setup.ts';

const test = suite('the Inbox CSV export, streamed and bounded in time');
const ENTRIES = 1200;
const PAGE_TIME_MS = 6 * 60 * 1000;

/** A raw GET: the status, the body as far as it came, and whether the answer was complete. */
function get(url: string, path: string, cookie: string): Promise<{ status: number; text: string; complete: boolean; chunked: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${url}${path}`, { headers: { cookie } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      const done = () =>
        resolve({ status: response.statusCode ?? 0, text, complete: response.complete, chunked: response.headers['transfer-encoding'] === 'chunked' });
      response.on('end', done).on('aborted', done).on('error', done);
    });
    outgoing.on('error', reject).end();
  });
}

async function start(slow: boolean): Promise<OperatorServer> {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  for (let i = 1; i <= ENTRIES; i++) {
    await storage.intake.addFeedback({ type: 'general', description: `entry ${i}`, email: null, appVersion: null, rating: null, receivedAt: clock.now() });
  }
  if (slow) {
    const list = storage.inbox.list.bind(storage.inbox);
    storage.inbox.list = async (filter) => {
      clock.advance(PAGE_TIME_MS);
      return list(filter);
    };
  }
  return startOperatorServer({ storage, clock });
}

test('every entry of three pages, newest first, sent chunked as the pages are read', async () => {
  const running = await start(false);
  try {
    const session = await signIn(running.url);
    const csv = await get(running.url, '/pages/inbox/export.csv', session.cookie);
    assert.equal([csv.status, csv.complete, csv.chunked], [200, true, true]);
    const lines = csv.text.split('\r\n');
    assert.is(lines[0], 'id,receivedAt,type,rating,appVersion,email,description,handledAt');
    assert.is(lines.length, ENTRIES + 2);
    assert.match(lines[1]!, /^1200,.*,entry 1200,$/);
    assert.match(lines[ENTRIES]!, /^1,.*,entry 1,$/);
    assert.is(lines[ENTRIES + 1], '');
  } finally {
    await running.close();
  }
});

test(`an export past ${EXPORT_TIME_LIMIT_MS / 60_000} minutes is cut: the client sees an incomplete answer`, async () => {
  const running = await start(true);
  try {
    const session = await signIn(running.url);
    const csv = await get(running.url, '/pages/inbox/export.csv', session.cookie);
    assert.equal([csv.status, csv.complete], [200, false]);
    assert.ok(csv.text.split('\r\n').length - 2 < ENTRIES, 'not every entry was sent');
  } finally {
    await running.close();
  }
});

test.run();
