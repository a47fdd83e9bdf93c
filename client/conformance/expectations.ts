/**
 * Known failures (web-platform-tests' expectation metadata): a JSON file naming the checks a target is
 * known to fail, so that they do not fail the run; a check listed there that passes is reported, not failed.
 *
 * The file: `{ "failures": { "<check id>": "<the message when it was recorded>" } }`.
 */
import type { CheckResult, ConformanceReport } from './types.ts';

/** Check ids expected to fail, with the message recorded for each. */
export interface Expectations {
  failures: Record<string, string>;
}

/** How a result compares with the expectations. */
export type ExpectedOutcome = 'as-expected' | 'unexpected-failure' | 'unexpected-pass';

/**
 * Parses an expectations file.
 *
 * @throws Error naming what is wrong with it.
 */
export function readExpectations(text: string): Expectations {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the expectations file is not JSON');
  }
  const failures = (parsed as { failures?: unknown } | null)?.failures;
  if (typeof failures !== 'object' || failures === null || Array.isArray(failures)) {
    throw new Error('the expectations file needs "failures": an object of check ids');
  }
  for (const [id, message] of Object.entries(failures)) {
    if (typeof message !== 'string') throw new Error(`the expectations file's failure "${id}" must be a string`);
  }
  return { failures: failures as Record<string, string> };
}

/** The expectations file that records the report's failures. */
export function writeExpectations(report: ConformanceReport): string {
  const failures = Object.fromEntries(report.checks.filter((check) => check.status === 'fail').map((check) => [check.id, check.message]));
  return `${JSON.stringify({ failures }, null, 2)}\n`;
}

/** How one result compares with the expectations. */
export function outcomeOf(result: CheckResult, expectations: Expectations | null): ExpectedOutcome {
  const expected = expectations !== null && Object.hasOwn(expectations.failures, result.id);
  if (result.status === 'fail') return expected ? 'as-expected' : 'unexpected-failure';
  return expected && result.status === 'pass' ? 'unexpected-pass' : 'as-expected';
}

/**
 * Compares a report with the expectations.
 *
 * @returns ok when no check failed unexpectedly; the unexpected failures and passes.
 */
export function applyExpectations(
  report: ConformanceReport,
  expectations: Expectations | null,
): { ok: boolean; unexpectedFailures: CheckResult[]; unexpectedPasses: CheckResult[] } {
  const unexpectedFailures = report.checks.filter((check) => outcomeOf(check, expectations) === 'unexpected-failure');
  const unexpectedPasses = report.checks.filter((check) => outcomeOf(check, expectations) === 'unexpected-pass');
  return { ok: unexpectedFailures.length === 0, unexpectedFailures, unexpectedPasses };
}
