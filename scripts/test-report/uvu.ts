/**
 * uvu, as test files import it, plus a report of what really ran: per suite the tests that passed,
 * failed and were skipped, whether `.only` was used, and the error of a `before` hook that threw (uvu's
 * runner returns from a `finally` block, which discards that error: the suite just shows 0 of N passed).
 *
 * The report is written as JSON to the file named by TEST_REPORT when the process exits.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { inspect } from 'node:util';
import * as uvu from 'uvu';

export { exec } from 'uvu';
export type { Callback, Test } from 'uvu';

/** What one suite did. */
export interface SuiteReport {
  name: string;
  /** Which file of the process it belongs to: its index in uvu's queue (0 when the process runs one file). */
  group: number;
  /** How long its tests and hooks took, in milliseconds. */
  ms: number;
  /** Tests meant to run: all of them, or only the `.only` ones. */
  total: number;
  passed: number;
  skipped: number;
  /** How many tests were marked `.only`. */
  only: number;
  /** The error a `before` hook threw, as text. */
  setupError?: string;
}

const suites: SuiteReport[] = [];
type Runner = () => Promise<[string | true, number, number, number]>;

declare global {
  // uvu's own globals: the queue of groups (one per file: its name, then its suite runners), the index of
  // the group being filled, and whether a runner of several files calls `exec` itself.
  var UVU_QUEUE: (Runner | string | null)[][];
  var UVU_INDEX: number | undefined;
  var UVU_DEFER: number | undefined;
}

/** Wraps a `before` hook so that its error is kept and shown before uvu discards it. */
function keepSetupError<T>(report: SuiteReport, hook: uvu.Callback<T>): uvu.Callback<T> {
  return async (context) => {
    try {
      await hook(context);
    } catch (error) {
      report.setupError = error instanceof Error ? (error.stack ?? error.message) : inspect(error);
      process.stderr.write(`\n  SETUP FAILED  suite "${report.name}": a before hook threw\n    ${report.setupError}\n`);
      throw error;
    }
  };
}

/**
 * uvu's `suite`, reporting what it ran.
 *
 * @param title The suite's name.
 * @param context The state handed to every hook and test.
 */
export function suite<T = Record<string, unknown>>(title = '', context?: T): uvu.Test<T> {
  const test = uvu.suite<T>(title, context);
  // uvu resets a suite at each `run()`, so that it can be filled and run again (the shared default `test`
  // is, once per file, when one process runs several files): one report per run.
  const fresh = (): SuiteReport => ({ name: title, group: 0, ms: 0, total: 0, passed: 0, skipped: 0, only: 0 });
  let report = fresh();
  const { before, only, run } = test;
  const each = before.each;
  test.before = Object.assign((hook: uvu.Callback<T>) => before(keepSetupError(report, hook)), { each });
  test.only = (name, handler) => {
    report.only++;
    only(name, handler);
  };
  test.run = () => {
    const mine = report;
    report = fresh();
    mine.group = globalThis.UVU_INDEX ?? 0;
    run();
    const queue = globalThis.UVU_QUEUE[mine.group]!;
    const runner = queue[queue.length - 1] as Runner;
    queue[queue.length - 1] = async () => {
      const started = performance.now();
      const result = await runner();
      const [, passed, skipped, total] = result;
      Object.assign(mine, { passed, skipped, total, ms: Math.round(performance.now() - started) });
      suites.push(mine);
      return result;
    };
  };
  return test;
}

/** The default suite, as uvu exports it. */
export const test = suite();

const reportFile = process.env['TEST_REPORT'];
if (reportFile) process.on('exit', () => writeFileSync(reportFile, JSON.stringify({ suites })));
