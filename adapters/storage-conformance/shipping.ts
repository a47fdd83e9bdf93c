/**
 * Contract: when each release reached everyone is recorded once (first write wins) and listed.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';

export function shippingContract(test: ContractSuite): void {
  test('the time a release reached everyone is recorded once: a later record keeps the first time', async (context) => {
    const { shipping } = oneChangeEach(current(context).storage);
    assert.equal(await shipping.reachedEveryone(), [], 'nothing recorded, none listed: reachedEveryone()');
    const first = Date.UTC(2026, 10, 1, 9, 30, 0, 123);
    assert.is(await shipping.recordReachedEveryone('2.6.0', first), first, 'the first record is kept: recordReachedEveryone()');
    assert.is(await shipping.recordReachedEveryone('2.6.0', first + 60_000), first, 'a later record keeps the first time: recordReachedEveryone()');
    assert.is(await shipping.recordReachedEveryone('2.5.0', first - 1), first - 1, 'each version has its own record: recordReachedEveryone()');
    const listed = (await shipping.reachedEveryone()).sort((a, b) => a.at - b.at);
    assert.equal(listed, [
      { version: '2.5.0', at: first - 1 },
      { version: '2.6.0', at: first },
    ], 'every recorded release with its first time: reachedEveryone()');
  });
}

export function requestersToldContract(test: ContractSuite): void {
  test('a requester is told once, in a change with its mail; an unsubscribed address never; a change that throws marks nobody', async (context) => {
    const { storage } = current(context);
    const T0 = Date.UTC(2026, 10, 2, 8, 0, 0, 5);
    const mail = (id: number) => ({
      cause: `shipped:${id}`,
      kind: 'shipped' as const,
      session: null,
      to: 'ann@example.com',
      subject: 's',
      text: 't',
      html: 'h',
    });
    const tell = (id: number, email: string, at: number) =>
      storage.change(async (tx) => {
        if (!(await tx.shipping.markTold(id, email, at))) return false;
        await tx.mail.enqueue(mail(id), at);
        return true;
      });
    assert.is(await tell(7, 'Ann@Example.com', T0), true, 'a requester is told once: the first markTold()');
    assert.is(await tell(7, 'ann@example.com', T0 + 1), false, 'a requester is told once, whatever the case of the address: a second markTold()');
    const thrown = await storage
      .change(async (tx) => {
        await tx.shipping.markTold(8, 'bo@example.com', T0);
        throw new Error('refused');
      })
      .catch((error: unknown) => String(error));
    assert.is(thrown, 'Error: refused', "the change's error comes out as thrown");
    await storage.shipping.unsubscribe('Cy@Example.com', T0);
    await storage.shipping.unsubscribe('cy@example.com', T0 + 5);
    assert.is(await tell(9, 'cy@EXAMPLE.com', T0 + 2), false, 'an unsubscribed address (any case) is never told: markTold()');
    assert.equal(await storage.shipping.told(), [7], 'the told entries, in id order; a change that throws marks nobody: told()');
    assert.equal(await storage.shipping.unsubscribed(), ['cy@example.com'], 'an unsubscribed address is kept once, lower-cased: unsubscribed()');
    assert.is(await storage.shipping.toldCount(T0, T0 + 1), 1, 'told in the range, to excluded: toldCount()');
    assert.is(await storage.shipping.toldCount(T0 + 1, T0 + 10), 0, 'none told in the range: toldCount()');
    assert.equal(
      (await storage.mail.list({ limit: 10 })).map((m) => [m.cause, m.kind, m.to]),
      [['shipped:7', 'shipped', 'ann@example.com']],
      "the one mail is the told requester's: mail.list() [cause, kind, to]",
    );
  });

  test('the requester mails of a feature turn off and on again', async (context) => {
    const { shipping } = oneChangeEach(current(context).storage);
    await shipping.setFeatureMails(4, false);
    await shipping.setFeatureMails(2, false);
    await shipping.setFeatureMails(4, false);
    assert.equal(await shipping.mailsOff(), [2, 4], 'the features with mails off, in id order, each once: mailsOff()');
    await shipping.setFeatureMails(2, true);
    await shipping.setFeatureMails(3, true);
    assert.equal(await shipping.mailsOff(), [4], "a feature's mails turn on again: mailsOff()");
  });
}
