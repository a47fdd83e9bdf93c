/**
 * The ramp plan and the halt rule as pure functions: the rollout in force (basis points) at each instant, a halt that
 * holds its step, a resume that moves the plan on and watches afresh; the halt rule's minimums and its test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { daysRead, decideHalt, DEFAULT_HALT_RULE, haltWindows, installsOver, previousOf } from '../../core/releases/halt-rule.ts';
import { inForce, nextStepAt, nextSwitchAt, resumedPlan, rolloutInForce, unannouncedStep } from '../../core/releases/ramp-plan.ts';
import type { Release, UsageCount } from '../../core/ports/store-ports.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** 12:00 UTC: the release before was published a day earlier, at 12:00 too. */
const T0 = 20_000 * DAY + 12 * HOUR;
const release = (version: string, publishedAt: number, extra: Partial<Release> = {}): Release => ({
  version,
  msiUrl: `https://example.com/${version}.msi`,
  notesUrl: null,
  channel: 'stable',
  rolloutBasisPoints: 10000,
  publishedAt,
  pulledAt: null,
  sha256: null,
  size: null,
  critical: false,
  ramp: null,
  haltedAt: null,
  haltReason: null,
  announcedStep: 0,
  ...extra,
});
const ramp = { basisPoints: [100, 500, 2500, 10000], everyMs: DAY, startAt: T0 };

test('the step to announce: the one in force past the last announced (not each passed), held while halted; none pulled or without a plan', () => {
  const ramped = release('2.6.0', T0, { rolloutBasisPoints: 100, ramp });
  assert.equal([T0, T0 + DAY - 1, T0 + DAY, T0 + 3 * DAY + 5].map((at) => unannouncedStep(ramped, at)), [null, null, 1, 3]);
  assert.is(unannouncedStep({ ...ramped, announcedStep: 3 }, T0 + 9 * DAY), null);
  assert.is(unannouncedStep({ ...ramped, announcedStep: 1, haltedAt: T0 + DAY + 5 }, T0 + 9 * DAY), null, 'held at step 1');
  assert.is(unannouncedStep({ ...ramped, haltedAt: T0 + 2 * DAY }, T0 + 9 * DAY), 2, 'a step reached before the halt');
  assert.is(unannouncedStep({ ...ramped, pulledAt: T0 + 1 }, T0 + 9 * DAY), null);
  assert.is(unannouncedStep(release('2.5.0', T0), T0 + 9 * DAY), null);
});

test('the rollout in force follows the plan to the millisecond, holds while halted, and is the stored one without a plan', () => {
  const ramped = release('2.6.0', T0, { rolloutBasisPoints: 100, ramp });
  assert.equal([T0 - 1, T0, T0 + DAY - 1, T0 + DAY, T0 + 3 * DAY, T0 + 30 * DAY].map((at) => rolloutInForce(ramped, at)), [100, 100, 100, 500, 10000, 10000]);
  assert.equal([nextStepAt(ramped, T0), nextStepAt(ramped, T0 + DAY), nextStepAt(ramped, T0 + 3 * DAY)], [T0 + DAY, T0 + 2 * DAY, null]);
  const halted = { ...ramped, haltedAt: T0 + DAY + 5 };
  assert.equal([rolloutInForce(halted, T0 + 10 * DAY), nextStepAt(halted, T0 + 10 * DAY)], [500, null]);
  const resumed = { ...halted, ramp: resumedPlan(ramp, T0 + DAY + 5, T0 + 10 * DAY), haltedAt: null };
  assert.equal([rolloutInForce(resumed, T0 + 10 * DAY), nextStepAt(resumed, T0 + 10 * DAY)], [500, T0 + 11 * DAY - 5]);
  assert.is(rolloutInForce(release('2.5.0', T0, { rolloutBasisPoints: 3000 }), T0 + 99 * DAY), 3000);
  const both = [ramped, release('2.5.0', T0)];
  assert.equal(inForce(both, T0 + DAY).map((r) => r.rolloutBasisPoints), [500, 10000]);
  assert.is(inForce(both, T0 + DAY)[1], both[1], 'unchanged releases are the same objects');
  assert.is(nextSwitchAt(both, T0), T0 + DAY);
});

/**
 * The release and the one before it, published a day apart at 12:00 UTC: 2,000 installs of 2.5.0 on the 12
 * hours of its first day, `installs` of 2.6.0 so far. Six hours in, 2.5.0's first 6 hours count half its day: 1,000.
 */
const old = release('2.5.0', T0 - DAY);
const ramped = release('2.6.0', T0, { rolloutBasisPoints: 5000, ramp: { ...ramp, basisPoints: [5000, 10000] } });
const dayOf = (at: number) => Math.floor(at / DAY);
const installed = (day: number, version: string, count: number): UsageCount => ({
  day,
  kind: 'installed',
  release: version,
  source: 'none',
  platform: 'windows',
  count,
});
const installRows = (installs: number): UsageCount[] => [installed(dayOf(old.publishedAt), '2.5.0', 2000), installed(dayOf(T0), '2.6.0', installs)];
const decideAt = (target: Release, mine: { clients: number; networks: number }, installs: number, before = { clients: 1, networks: 1 }, now = T0 + 6 * HOUR) =>
  decideHalt(target, haltWindows(target, old, '2.4.1', now), { usage: installRows(installs), mine, before }, DEFAULT_HALT_RULE);

test("installs are read over the windows' exact times: a past day's count for the part of it read, the day under way's for the time so far", () => {
  const windows = (now: number) => haltWindows(ramped, old, '2.4.1', now);
  // Six hours in: 2.5.0's first day lasted 12 hours (published at 12:00), so its first 6 count half of it.
  assert.is(installsOver(installRows(500), '2.5.0', windows(T0 + 6 * HOUR).before, T0 + 6 * HOUR), 1000);
  assert.is(installsOver(installRows(500), '2.6.0', windows(T0 + 6 * HOUR).mine, T0 + 6 * HOUR), 500);
  // An hour in: 1/12 of it, however many installs 2.6.0 has seen so far.
  assert.is(Math.round(installsOver(installRows(500), '2.5.0', windows(T0 + HOUR).before, T0 + HOUR)), 167);
  // 30 hours in: 2.5.0's first day whole (its 12 hours) and 18 of its second's 24; 2.6.0's first day whole, its second so far.
  const rows = [...installRows(1800), installed(dayOf(old.publishedAt) + 1, '2.5.0', 2400), installed(dayOf(T0) + 1, '2.6.0', 300)];
  const later = windows(T0 + 30 * HOUR);
  assert.equal(later.before, { version: '2.5.0', from: old.publishedAt, to: old.publishedAt + 30 * HOUR, since: old.publishedAt });
  assert.is(installsOver(rows, '2.5.0', later.before, T0 + 30 * HOUR), 2000 + (2400 * 18) / 24);
  assert.is(installsOver(rows, '2.6.0', later.mine, T0 + 30 * HOUR), 1800 + 300);
});

test('the halt rule: 20 reporting clients from 20 networks of 500 installs against 1 of 1,000 halts (docs/releases.md)', () => {
  assert.is(previousOf(ramped, [ramped, old]), old);
  const decision = decideAt(ramped, { clients: 20, networks: 20 }, 500);
  assert.equal([decision.halt, decision.release.perThousand, decision.previous.perThousand], [true, 40, 1]);
  // P(X >= 20) for X ~ Binomial(21, 3*500 / (3*500 + 1000) = 0.6) = 21 * 0.6^20 * 0.4 + 0.6^21 = 9 * 0.6^20.
  assert.ok(Math.abs(decision.pValue / (9 * 0.6 ** 20) - 1) < 1e-9, String(decision.pValue));
  assert.is(
    decision.reason,
    '2.6.0: 20 reporting clients from 20 networks, of 500 installs on its first day (40.0 per 1,000), against 2.5.0: 1 of 1,000 (1.0 per 1,000) ' +
      'at the same age; p = 0.00033 for more than 3× its rate. The rule halts with at least 10 reporting clients from 10 networks and p below 0.0010 (99.9% confidence).',
  );
});

test('the halt rule needs enough clients, enough networks and a significant excess: any one missing does not halt', () => {
  assert.not.ok(decideAt(ramped, { clients: 9, networks: 9 }, 100).halt, '9 clients: under the minimum, whatever the rate');
  assert.not.ok(decideAt(ramped, { clients: 10, networks: 1 }, 0).halt, 'ten addresses of one /24');
  assert.not.ok(decideAt(ramped, { clients: 500, networks: 9 }, 0).halt, 'many clients from 9 networks');
  assert.not.ok(decideAt(ramped, { clients: 20, networks: 20 }, 10_000).halt, '2 per 1,000: under 3 times 1 per 1,000');
  assert.not.ok(decideAt(ramped, { clients: 12, networks: 12 }, 2_000).halt, '6 per 1,000: above 3 times, but not significantly');
  assert.ok(decideAt(ramped, { clients: 10, networks: 10 }, 0).halt, 'no install counted: the reporters count as installs');
});

test('a plan sets its own minimums; with no installs of the previous release counted nothing can halt', () => {
  const strict = { ...ramped, ramp: { ...ramped.ramp!, halt: { minClients: 30, minNetworks: 25 } } };
  assert.not.ok(decideAt(strict, { clients: 29, networks: 29 }, 100).halt);
  assert.not.ok(decideAt(strict, { clients: 40, networks: 24 }, 100).halt);
  assert.ok(decideAt(strict, { clients: 30, networks: 25 }, 100).halt);
  const none = decideHalt(ramped, haltWindows(ramped, old, '2.4.1', T0 + 6 * HOUR), {
    usage: installRows(500).slice(1),
    mine: { clients: 50, networks: 50 },
    before: { clients: 0, networks: 0 },
  }, DEFAULT_HALT_RULE);
  assert.equal([none.halt, none.pValue], [false, 1]);
});

test("after a resume the rule watches from the resume: its window and the previous release's same age start there", () => {
  const resumedAt = T0 + 2 * DAY;
  const resumed = { ...ramped, ramp: resumedPlan(ramped.ramp!, T0 + DAY, resumedAt) };
  const windows = haltWindows(resumed, old, '2.4.1', resumedAt + 3 * HOUR);
  assert.equal(windows, {
    mine: { from: resumedAt, to: resumedAt + 3 * HOUR, since: T0 },
    before: { version: '2.5.0', from: old.publishedAt, to: old.publishedAt + 3 * HOUR, since: old.publishedAt },
  });
  // On the resume's day, the installs seen in its 15 hours so far count for the 3 since the resume: a fifth.
  assert.is(installsOver([installed(dayOf(resumedAt), '2.6.0', 900)], '2.6.0', windows.mine, resumedAt + 3 * HOUR), 900 / 5);
  assert.equal(daysRead(windows), { fromDay: dayOf(old.publishedAt), toDay: dayOf(resumedAt) });
});

test('with no release before it, a ramp is compared with the baseline over as long up to its publication', () => {
  const late = release('2.6.0', T0 + 2 * DAY, { rolloutBasisPoints: 5000, ramp: { ...ramp, startAt: T0 + 2 * DAY, basisPoints: [5000, 10000] } });
  assert.is(previousOf(late, [late]), null);
  const windows = haltWindows(late, null, '2.4.1', T0 + 4 * DAY);
  assert.equal(windows.before, { version: '2.4.1', from: T0, to: T0 + 2 * DAY, since: Number.NEGATIVE_INFINITY });
  // The baseline ran all of each day: its 12 hours on the first and on the third count half of them.
  const d = dayOf(T0);
  const usage: UsageCount[] = [
    ...[d, d + 1, d + 2].map((day) => installed(day, '2.4.1', 1000)),
    installed(d + 2, '2.6.0', 500),
    installed(d + 3, '2.6.0', 1000),
    installed(d + 4, '2.6.0', 500),
  ];
  // 6 per 1,000 against 5 per 1,000: not past 3 times.
  const decision = decideHalt(late, windows, { usage, mine: { clients: 12, networks: 12 }, before: { clients: 10, networks: 10 } }, DEFAULT_HALT_RULE);
  assert.equal([decision.halt, decision.previous.installs, decision.previous.perThousand, decision.release.installs, decision.release.perThousand], [
    false,
    2000,
    5,
    2000,
    6,
  ]);
});

test.run();
