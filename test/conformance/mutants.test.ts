/**
 * The kit can fail: over each broken reference app (test/conformance/_mutants-*.ts, each breaking one
 * clause) a check of that clause fails, and every check of the kit fails on at least one of them. The
 * reference app itself fails none (kit.test.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runConformance, selectChecks, simulatorPayment } from '../../client/conformance/index.ts';
import type { Mutant } from './_mutate.ts';
import { documentMutants } from './_mutants-documents.ts';
import { limitMutants } from './_mutants-limits.ts';
import { stateMutants } from './_mutants-state.ts';
import { CLIENT_HEADER, referenceApp } from './_reference.ts';

const MUTANTS = [...documentMutants, ...stateMutants, ...limitMutants];
const CHECKS = selectChecks(undefined);
const failedOn = new Map<string, string[]>();

const run = async (mutant: Mutant, strict: boolean) => {
  const { fetch, clock } = await referenceApp(mutant.appOptions);
  const sleep = async (ms: number) => clock.advance(ms);
  return runConformance({ fetch: mutant.wrap(fetch), clientAddressHeader: CLIENT_HEADER, payCheckout: simulatorPayment, sleep, strict });
};

for (const mutant of MUTANTS) {
  test(`${mutant.name} (${mutant.clause}): a ${mutant.strict ? 'strict ' : ''}check of that clause fails`, async () => {
    const report = await run(mutant, mutant.strict === true);
    const failed = report.checks.filter((check) => check.status === 'fail');
    for (const check of failed) failedOn.set(check.id, [...(failedOn.get(check.id) ?? []), mutant.name]);
    const ofClause = failed.filter((check) => {
      const definition = CHECKS.find((c) => c.id === check.id)!;
      return definition.clause === mutant.clause || definition.also?.includes(mutant.clause);
    });
    assert.ok(ofClause.length > 0, `no check of ${mutant.clause} failed; failed: ${failed.map((check) => check.id).join(', ') || 'none'}`);
  });
}

for (const mutant of MUTANTS.filter((m) => m.strict)) {
  test(`${mutant.name}: the spec allows it, so the default kit passes it`, async () => {
    const report = await run(mutant, false);
    assert.equal(report.checks.filter((check) => check.status === 'fail').map((check) => `${check.id}: ${check.message}`), []);
  });
}

test('every check fails on at least one broken app', () => {
  assert.equal(CHECKS.filter((check) => !failedOn.has(check.id)).map((check) => check.id), []);
});

test.run();
