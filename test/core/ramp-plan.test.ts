/**
 * The ramp plan and the halt rule as pure functions: the percent in force at each instant, a halt that
 * holds its step, a resume that moves the plan on; the rule's figures and its two conditions.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideHalt, DEFAULT_HALT_RULE, figuresOf, previousOf } from '../../core/releases/halt-rule.ts';
import { inForce, nextStepAt, nextSwitchAt, percentInForce, resumedPlan, unannouncedStep } from '../../core/releases/ramp-plan.ts';
import type { Release, UsageCount } from '../../core/ports/store-ports.ts';

const DAY = 86_400_000;
const T0 = 20_000 * DAY + 3_600_000;
const release = (version: string, publishedAt: number, extra: Partial<Release> = {}): Release => ({
  version,
  msiUrl: `https://example.com/${version}.msi`,
  notesUrl: null,
  rolloutPercent: 100,
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
const ramp = { steps: [1, 5, 25, 100], everyMs: DAY, startAt: T0 };

test('the step to announce: the one in force past the last announced (not each passed), held while halted; none pulled or without a plan', () => {
  const ramped = release('2.6.0', T0, { rolloutPercent: 1, ramp });
  assert.equal([T0, T0 + DAY - 1, T0 + DAY, T0 + 3 * DAY + 5].map((at) => unannouncedStep(ramped, at)), [null, null, 1, 3]);
  assert.is(unannouncedStep({ ...ramped, announcedStep: 3 }, T0 + 9 * DAY), null);
  assert.is(unannouncedStep({ ...ramped, announcedStep: 1, haltedAt: T0 + DAY + 5 }, T0 + 9 * DAY), null, 'held at step 1');
  assert.is(unannouncedStep({ ...ramped, haltedAt: T0 + 2 * DAY }, T0 + 9 * DAY), 2, 'a step reached before the halt');
  assert.is(unannouncedStep({ ...ramped, pulledAt: T0 + 1 }, T0 + 9 * DAY), null);
  assert.is(unannouncedStep(release('2.5.0', T0), T0 + 9 * DAY), null);
});

test('the percent in force follows the plan to the millisecond, holds while halted, and is the stored one without a plan', () => {
  const ramped = release('2.6.0', T0, { rolloutPercent: 1, ramp });
  assert.equal([T0 - 1, T0, T0 + DAY - 1, T0 + DAY, T0 + 3 * DAY, T0 + 30 * DAY].map((at) => percentInForce(ramped, at)), [1, 1, 1, 5, 100, 100]);
  assert.equal([nextStepAt(ramped, T0), nextStepAt(ramped, T0 + DAY), nextStepAt(ramped, T0 + 3 * DAY)], [T0 + DAY, T0 + 2 * DAY, null]);
  const halted = { ...ramped, haltedAt: T0 + DAY + 5 };
  assert.equal([percentInForce(halted, T0 + 10 * DAY), nextStepAt(halted, T0 + 10 * DAY)], [5, null]);
  const resumed = { ...halted, ramp: resumedPlan(ramp, T0 + DAY + 5, T0 + 10 * DAY), haltedAt: null };
  assert.equal([percentInForce(resumed, T0 + 10 * DAY), nextStepAt(resumed, T0 + 10 * DAY)], [5, T0 + 11 * DAY - 5]);
  assert.is(percentInForce(release('2.5.0', T0, { rolloutPercent: 30 }), T0 + 99 * DAY), 30);
  const both = [ramped, release('2.5.0', T0)];
  assert.equal(inForce(both, T0 + DAY).map((r) => r.rolloutPercent), [5, 100]);
  assert.is(inForce(both, T0 + DAY)[1], both[1], 'unchanged releases are the same objects');
  assert.is(nextSwitchAt(both, T0), T0 + DAY);
});

test('the halt rule: past the factor with the minimum count halts; either alone does not', () => {
  const old = release('2.5.0', T0 - 10 * DAY);
  const ramped = release('2.6.0', T0, { rolloutPercent: 50, ramp: { ...ramp, steps: [50, 100] } });
  const day = (at: number) => Math.floor(at / DAY);
  const rows = (reports: number, installs: number): UsageCount[] => [
    { day: day(old.publishedAt), kind: 'installed', release: '2.5.0', source: 'none', platform: 'windows', count: 1000 },
    { day: day(old.publishedAt), kind: 'bug_report', release: '2.5.0', source: 'none', platform: 'windows', count: 1 },
    { day: day(T0), kind: 'installed', release: '2.6.0', source: 'none', platform: 'windows', count: installs },
    { day: day(T0), kind: 'bug_report', release: '2.6.0', source: 'none', platform: 'windows', count: reports },
  ];
  assert.is(previousOf(ramped, [ramped, old]), old);
  assert.equal(figuresOf(rows(20, 500), '2.6.0', day(T0), day(T0)), { version: '2.6.0', installs: 500, reports: 20, perThousand: 40, fromDay: day(T0), toDay: day(T0) });
  const decide = (reports: number, installs: number) => decideHalt(ramped, old, '2.4.1', rows(reports, installs), T0 + 60_000, DEFAULT_HALT_RULE).halt;
  assert.ok(decide(20, 500));
  assert.not.ok(decide(9, 100), '9 reports: under the minimum, whatever the rate');
  assert.not.ok(decide(20, 10_000), '2 per 1,000: under 3 times 1 per 1,000');
  assert.ok(decide(10, 0), 'no install counted: the installs count as 1');
});

test('with no release before it, a ramp is compared with the baseline over as many days up to its publication', () => {
  const ramped = release('2.6.0', T0 + 2 * DAY, { rolloutPercent: 50, ramp: { ...ramp, startAt: T0 + 2 * DAY, steps: [50, 100] } });
  const day = Math.floor(T0 / DAY);
  const rows: UsageCount[] = [
    { day, kind: 'installed', release: '2.4.1', source: 'none', platform: 'windows', count: 1000 },
    { day, kind: 'bug_report', release: '2.4.1', source: 'none', platform: 'windows', count: 10 },
    { day: day + 2, kind: 'installed', release: '2.6.0', source: 'none', platform: 'windows', count: 500 },
    { day: day + 2, kind: 'bug_report', release: '2.6.0', source: 'none', platform: 'windows', count: 12 },
  ];
  assert.is(previousOf(ramped, [ramped]), null);
  // Two days old: the baseline's days from two before its publication to that day, 10 per 1,000; 24 is not past 30.
  const decision = decideHalt(ramped, null, '2.4.1', rows, T0 + 4 * DAY, DEFAULT_HALT_RULE);
  assert.equal([decision.halt, decision.previous?.fromDay, decision.previous?.perThousand, decision.release.perThousand], [false, day, 10, 24]);
});

test.run();
