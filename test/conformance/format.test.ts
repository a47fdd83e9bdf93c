/**
 * The report formats and the known failures, on a report of three checks: one passed, one failed, one
 * skipped. Exact output, as a CI system reads it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyExpectations, type ConformanceReport, formatReport, readExpectations, writeExpectations } from '../../client/conformance/index.ts';

const report: ConformanceReport = {
  passed: 1,
  failed: 1,
  skipped: 1,
  checks: [
    { id: 'version', clause: 'rules.3', title: 'GET version', status: 'pass', message: 'as the spec says' },
    { id: 'not-found', clause: 'errors.not_found', title: 'Unknown <path> & #404', status: 'fail', message: 'expected code "not_found", got "no_route"' },
    { id: 'checkout-paid', clause: 'rules.8', title: 'Paid', status: 'skip', message: 'needs a paid checkout' },
  ],
};
const known = readExpectations(writeExpectations(report));

test('text: one line per check with its clause, then the counts', () => {
  assert.is(
    formatReport(report, 'text'),
    'PASS  version [rules.3] GET version\nFAIL  not-found [errors.not_found] Unknown <path> & #404: expected code "not_found", got "no_route"\nSKIP  checkout-paid [rules.8] Paid: needs a paid checkout\n\n1 passed, 1 failed, 1 skipped\n',
  );
  assert.match(formatReport(report, 'text', known), 'FAIL (expected) not-found [errors.not_found]');
});

test('TAP 14: a plan, ok / not ok with # SKIP, the clause and message as YAML; known failures are # TODO', () => {
  const tap = formatReport(report, 'tap').split('\n');
  assert.equal(tap.slice(0, 6), ['TAP version 14', '1..3', 'ok 1 - version: GET version', '  ---', '  clause: "rules.3"', '  message: "as the spec says"']);
  assert.is(tap[7], 'not ok 2 - not-found: Unknown <path> & \\#404');
  assert.is(tap[10], '  message: "expected code \\"not_found\\", got \\"no_route\\""');
  assert.is(tap[12], 'ok 3 - checkout-paid: Paid # SKIP needs a paid checkout');
  assert.is(formatReport(report, 'tap', known).split('\n')[7], 'not ok 2 - not-found: Unknown <path> & \\#404 # TODO expected failure');
});

test('JUnit: a testcase per check named by clause, escaped; known failures as skipped', () => {
  const junit = formatReport(report, 'junit');
  assert.match(junit, '<testsuite name="converter-site-api conformance" tests="3" failures="1" skipped="1">');
  assert.match(
    junit,
    '<testcase classname="errors.not_found" name="not-found: Unknown &lt;path&gt; &amp; #404">\n      <failure message="expected code &quot;not_found&quot;, got &quot;no_route&quot;">',
  );
  assert.match(formatReport(report, 'junit', known), 'tests="3" failures="0" skipped="2"');
});

test('JSON is the report itself', () => {
  assert.equal(JSON.parse(formatReport(report, 'json')), report);
});

test('expectations: the failures recorded; a listed check that passes is reported, not failed', () => {
  assert.equal(known, { failures: { 'not-found': 'expected code "not_found", got "no_route"' } });
  assert.equal(applyExpectations(report, null).ok, false);
  assert.equal(applyExpectations(report, known), { ok: true, unexpectedFailures: [], unexpectedPasses: [] });
  const stale = applyExpectations(report, { failures: { version: 'once', 'not-found': '' } });
  assert.equal([stale.ok, stale.unexpectedPasses.map((check) => check.id)], [true, ['version']]);
  assert.throws(() => readExpectations('[]'), /needs "failures"/);
  assert.throws(() => readExpectations('{"failures":{"x":1}}'), /failure "x" must be a string/);
  assert.throws(() => readExpectations('nope'), /not JSON/);
});

test.run();
