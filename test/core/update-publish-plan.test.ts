/**
 * Which update files are signed again (core/updates/publish-plan.ts, issue 54): a changed list re-signs the
 * chain, an expiry within its renewal window re-signs that file and its parents, a file signed by a key the
 * root no longer names is signed again, and current files are left alone.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LIFETIMES, publishPlan } from '../../core/updates/publish-plan.ts';

const NOW = Date.UTC(2026, 11, 7, 12, 0, 0);
const HOUR = 3_600_000;
const keys = { timestamp: ['online'], snapshot: ['online'], targets: ['online'] };
const fresh = (role: keyof typeof LIFETIMES, version = 3) => ({ version, expiresAt: NOW + LIFETIMES[role].validMs - HOUR, signedBy: ['online'] });
const current = { targets: fresh('targets'), snapshot: fresh('snapshot'), timestamp: fresh('timestamp') };

test('nothing stored yet: all three, children first', () => {
  assert.equal(publishPlan({ now: NOW, targetsChanged: true, rootKeyids: keys, newest: {} }), ['targets', 'snapshot', 'timestamp']);
});

test('current files and an unchanged list: nothing', () => {
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: keys, newest: current }), []);
});

test('a changed list: targets, then the snapshot and timestamp that name it', () => {
  assert.equal(publishPlan({ now: NOW, targetsChanged: true, rootKeyids: keys, newest: current }), ['targets', 'snapshot', 'timestamp']);
});

test('the timestamp at 12 hours before its expiry is signed again, alone; a minute before that it is not', () => {
  const at = (left: number) => ({ ...current, timestamp: { ...current.timestamp, expiresAt: NOW + left } });
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: keys, newest: at(12 * HOUR) }), ['timestamp']);
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: keys, newest: at(12 * HOUR + 60_000) }), []);
});

test('a snapshot within a day of its expiry: the snapshot and the timestamp', () => {
  const newest = { ...current, snapshot: { ...current.snapshot, expiresAt: NOW + 24 * HOUR } };
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: keys, newest }), ['snapshot', 'timestamp']);
});

test('a rotated online key: every file signed by the old one is signed again', () => {
  const rotated = { timestamp: ['new'], snapshot: ['new'], targets: ['new'] };
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: rotated, newest: current }), ['targets', 'snapshot', 'timestamp']);
  const onlyTimestamp = { ...keys, timestamp: ['new'] };
  assert.equal(publishPlan({ now: NOW, targetsChanged: false, rootKeyids: onlyTimestamp, newest: current }), ['timestamp']);
});

test.run();
