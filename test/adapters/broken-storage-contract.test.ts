/**
 * The storage contract names the rule a storage breaks and shows what came back. A memory storage broken
 * on three rules the port's doc comments state (equal publish times list the later published first; an
 * event id is `msg_` and 32 lower-case hex digits; a second completion of a resend request writes no
 * mail) fails the cases that check them, and only those, each with a message that reads
 * `<rule>: got <what came back>, expected <what the rule wants>`.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { storageConformanceCases } from '../../adapters/storage-conformance/index.ts';
import type { Storage } from '../../core/storage.ts';

/** How many random ids the storage of the running case made. */
let count = 0;

/** Random ids made from a counter while `work` runs, each storage's from 1, so that event ids, and so the messages, are the same on every run. */
async function countedIds<T>(work: () => Promise<T>): Promise<T> {
  const random = crypto.randomUUID;
  crypto.randomUUID = () => `00000000-0000-4000-8000-${String(++count).padStart(12, '0')}`;
  try {
    return await work();
  } finally {
    crypto.randomUUID = random;
  }
}

/** A memory storage that breaks three rules of the port: two reads outside a change, and a write in one. */
function brokenStorage(): Storage {
  count = 0;
  const inner = createMemoryStorage();
  const completed = new Set<number>();
  return {
    ...inner,
    // A second completion of a request writes its mail anyway.
    change: (work) =>
      inner.change((tx) =>
        work({
          ...tx,
          mail: {
            ...tx.mail,
            async completeResendRequest(id, mail, at) {
              if (completed.has(id) && mail) await tx.mail.enqueue(mail, at);
              completed.add(id);
              await tx.mail.completeResendRequest(id, mail, at);
            },
          },
        })
      ),
    releases: {
      ...inner.releases,
      // Of equal publish times, the one published first comes first.
      async listReleases() {
        const listed = await inner.releases.listReleases();
        return listed.map((release, i) => ({ release, i })).sort((a, b) => b.release.publishedAt - a.release.publishedAt || b.i - a.i).map(
          ({ release }) => release,
        );
      },
    },
    outbox: {
      ...inner.outbox,
      // Event ids keep the UUID's dashes.
      async listDeliveries(filter) {
        return (await inner.outbox.listDeliveries(filter)).map((d) => ({
          ...d,
          eventId: d.eventId.replace(/^msg_(.{8})(.{4})(.{4})(.{4})/, 'msg_$1-$2-$3-$4-'),
        }));
      },
    },
  } as Storage;
}

test('a storage that breaks three rules fails the cases that check them, each message naming the rule and what came back', async () => {
  const failed = await countedIds(async () => {
    const messages: string[] = [];
    for (const c of storageConformanceCases({ create: brokenStorage })) await c.run().catch((error: Error) => messages.push(error.message));
    return messages;
  });
  assert.equal(failed, [
    'storage conformance: "releases: a publish checked in a change that holds the releases: a refusal stores nothing and sends no event" failed: ' +
    'equal publish times list the later published first: listReleases() versions: got ["2.5.0","2.6.0"], expected ["2.6.0","2.5.0"]',
    'storage conformance: "outbox: without an endpoint nothing is written; with one, each change writes one pending delivery" failed: ' +
    'an event id is msg_ and 32 lower-case hex digits: listDeliveries()[0].eventId: got "msg_00000000-0000-4000-8000-000000000002", ' +
    'expected text matching /^msg_[0-9a-f]{32}$/',
    'storage conformance: "mail: resend requests are recorded, leased oldest first, and completed once with their mail" failed: ' +
    'a second completion of a resend request writes no mail: list() [cause, state, createdAt]: ' +
    `got [["resend:a-again","pending",${T0 + 70_001}],["resend:a","pending",${T0 + 70_000}]], expected [["resend:a","pending",${T0 + 70_000}]]`,
    'storage conformance: "change: a change that throws keeps nothing of what it wrote, in any store, and the error comes out" failed: ' +
    'the next change commits; equal publish times list the later published first: listReleases() versions: got ["2.6.0","2.7.0"], expected ["2.7.0","2.6.0"]',
  ]);
});

/** The mail part's first time (adapters/storage-conformance/mail.ts). */
const T0 = Date.UTC(2026, 10, 25, 9, 30, 0, 123);

test('the memory storage unbroken passes those cases', async () => {
  const names = new Set([
    'releases: a publish checked in a change that holds the releases: a refusal stores nothing and sends no event',
    'outbox: without an endpoint nothing is written; with one, each change writes one pending delivery',
    'mail: resend requests are recorded, leased oldest first, and completed once with their mail',
    'change: a change that throws keeps nothing of what it wrote, in any store, and the error comes out',
  ]);
  const cases = storageConformanceCases({ create: () => createMemoryStorage() }).filter((c) => names.has(c.name));
  assert.is(cases.length, names.size, 'every case named above exists');
  for (const c of cases) await c.run();
});

test.run();
