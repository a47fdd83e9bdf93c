/**
 * Contract: the audit trail read in pages and filters, the same on every storage: who made each change
 * (the operator's name, or null), keyset pages by id newest first, an action's beginning and a target's
 * text matched as plain text (a `%` or `_` in a filter is no wildcard).
 */
import * as assert from './assert.ts';
import type { AuditEntry } from '../../core/ports/store-ports.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0, 7);

const ENTRIES: AuditEntry[] = [
  { at: T0, action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-1', actor: 'ada' },
  { at: T0 + 1, action: 'roadmap.created', target: '7', requestId: 'r-2', actor: 'grace' },
  { at: T0 + 2, action: 'release.rollout', target: '2.5.0 at 100%', requestId: 'r-3', actor: 'grace' },
  { at: T0 + 3, action: 'order.refunded', target: 'cs_test_1 charge.refunded', requestId: 'r-4', actor: null },
  { at: T0 + 4, action: 'releaseX.other', target: '2_5_0', requestId: 'r-5', actor: 'operator' },
  { at: T0 + 5, action: 'release.pulled', target: '2.5.0', requestId: 'r-6', actor: 'ada' },
];

export function auditTrailContract(test: ContractSuite): void {
  test('the actor kept (null too), pages by id newest first, filters by actor, action prefix and target text', async (context) => {
    const { audit } = oneChangeEach(current(context).storage);
    for (const entry of ENTRIES) await audit.record(entry);
    const ids = async (filter: Parameters<typeof audit.list>[0]) => (await audit.list(filter)).map((row) => row.id);

    const all = await audit.list({ limit: 10 });
    assert.equal(all, ENTRIES.map((entry, i) => ({ ...entry, id: i + 1 })).reverse(), 'every field, the actor null where none was recorded');
    assert.equal(await ids({ limit: 2 }), [6, 5], 'pages by id newest first, at most the limit: list() ids');
    assert.equal(await ids({ limit: 2, before: 5 }), [4, 3], 'a page below `before`: list() ids');
    assert.equal(await ids({ limit: 2, before: 3 }), [2, 1], 'a page below `before`: list() ids');
    assert.equal(await ids({ limit: 2, before: 1 }), [], 'nothing below the first id: list() ids');
    assert.equal(await ids({ limit: 10, actor: 'ada' }), [6, 1], 'by actor (exact name): list() ids');
    assert.equal(await ids({ limit: 10, actor: 'nobody' }), [], 'an unknown actor has no entries: list() ids');
    assert.equal(await ids({ limit: 10, action: 'release.' }), [6, 3, 1], 'a prefix: releaseX.other does not start with "release."');
    assert.equal(await ids({ limit: 10, action: 'Release.' }), [], 'case-sensitive');
    assert.equal(await ids({ limit: 10, target: '2.5.0' }), [6, 3, 1], 'targets that contain the text: list() ids');
    assert.equal(await ids({ limit: 10, target: '2_5' }), [5], '_ is a plain character');
    assert.equal(await ids({ limit: 10, target: '0%' }), [3, 1], '% is a plain character');
    assert.equal(await ids({ limit: 10, action: 'release', target: '%' }), [3, 1], "an action prefix and a target's text at once, % plain: list() ids");
    assert.equal(await ids({ limit: 1, actor: 'grace', action: 'r', target: '2.5' }), [3], 'every filter at once, at most the limit: list() ids');
    assert.equal(await ids({ limit: 10, actor: 'grace', before: 3 }), [2], 'by actor below `before`: list() ids');
  });
}
