/**
 * Deliveries are isolated per endpoint: a receiver that never answers holds its own slots (4), never
 * the others'. The background loop sends 10 events to a receiver that hangs and to one that answers at
 * once, over real sockets: every event reaches the quick one while the slow one still holds its first
 * requests, none timed out yet (one tick used to wait for its slowest receiver, 10 s a tick).
 * Disabled endpoints get nothing, retries and replays included.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import type { Logger } from '../../core/ports/ports.ts';
import { startEventDelivery } from '../../server/event-delivery.ts';

const quiet: Logger = { info() {}, warn() {}, error() {} };
const endpoint = (url: string) => ({ url, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: [], format: 'standard' as const, createdAt: 0 });
const entry = (i: number) => ({ type: 'general' as const, description: `entry ${i}`, email: null, appVersion: null, rating: null, receivedAt: 0 });

async function listen(handle: (response: ServerResponse) => void) {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => handle(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

test('a receiver that hangs delays only its own deliveries', async () => {
  const storage = createMemoryStorage();
  const clock = { now: () => 1_000 };
  const held: ServerResponse[] = [];
  let quick = 0;
  let allQuick = () => {};
  const tenQuick = new Promise<void>((resolve) => (allQuick = resolve));
  const slow = await listen((response) => void held.push(response));
  const fast = await listen((response) => {
    response.writeHead(204).end();
    if (++quick === 10) allQuick();
  });
  await storage.change((tx) => tx.outbox.addEndpoint(endpoint(slow.url)));
  await storage.change((tx) => tx.outbox.addEndpoint(endpoint(fast.url)));
  for (let i = 1; i <= 10; i++) await storage.intake.addFeedback(entry(i));
  const hold = setInterval(() => {}, 60_000);
  const delivery = startEventDelivery(storage, clock, quiet, 1, { allowed: parseCidrList('127.0.0.1/32') });
  try {
    await tenQuick;
    assert.is(held.length, 4, 'the hanging receiver holds its 4 slots, its requests still open');
    assert.ok(held.every((response) => !response.writableEnded && !response.destroyed && !response.socket?.destroyed));
  } finally {
    for (const response of held) response.writeHead(204).end();
    await delivery.stop();
    clearInterval(hold);
    slow.server.closeAllConnections();
    fast.server.closeAllConnections();
    slow.server.close();
    fast.server.close();
  }
});

test('a disabled endpoint gets nothing, its retries and replays included, until it is enabled again', async () => {
  const storage = createMemoryStorage();
  const added = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/never')));
  await storage.intake.addFeedback(entry(1));
  const [first] = await storage.outbox.listDeliveries({ limit: 1 });
  await storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: false }));
  assert.equal(await storage.outbox.claimDue(5_000, 20_000, 10), [], 'pending, not claimed');
  await storage.change((tx) => tx.outbox.replay(first!.id, 6_000));
  assert.equal(await storage.outbox.claimDue(7_000, 20_000, 10), [], 'a replay waits too');
  await storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: true }));
  assert.equal((await storage.outbox.claimDue(7_000, 20_000, 10)).map((d) => d.id), [first!.id]);
});

test.run();
