/**
 * What one test file's run amounts to: its counts, read from the report it wrote (./uvu.ts), and every
 * reason it fails. A file that broke outside its tests counts as one failure.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { SuiteReport } from './uvu.ts';

/** How a test file's process ended. */
export interface FileRun {
  file: string;
  code: number;
  output: string;
  /** The report file the process was told to write. */
  report: string;
  /** The timeout in seconds, when the process was stopped for outliving it. */
  timedOut: number | null;
}

export interface FileOutcome extends FileRun {
  passed: number;
  failed: number;
  skipped: number;
  /** Why the file failed; empty when it passed. */
  problems: string[];
}

/** The suites a report file lists, or null when the process wrote none (or an unreadable one). */
export function readSuites(path: string): SuiteReport[] | null {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { suites: SuiteReport[] }).suites;
  } catch {
    return null;
  }
}

/**
 * Counts a file's tests and lists why it fails.
 *
 * @param run How its process ended.
 * @param suites Its suites: those of its report file unless given (a process that ran several files).
 */
export function fileOutcome(run: FileRun, suites: SuiteReport[] | null = readSuites(run.report)): FileOutcome {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const problems: string[] = [];
  for (const suite of suites ?? []) {
    passed += suite.passed;
    failed += suite.total - suite.passed;
    skipped += suite.skipped;
    if (suite.setupError !== undefined) {
      problems.push(`suite "${suite.name}": its before hook threw, so none of its ${suite.total} tests ran: ${suite.setupError.split('\n')[0]}`);
    }
    if (suite.only > 0) {
      problems.push(`suite "${suite.name}" marks ${suite.only} test(s) with .only, which skips the others: remove it`);
      failed++;
    }
  }
  if (failed > 0 && problems.length === 0) problems.push(`${failed} test(s) failed`);
  const broken = (problem: string) => {
    problems.push(problem);
    failed++;
  };
  if (run.timedOut !== null) broken(`stopped after ${run.timedOut} s (TEST_TIMEOUT)`);
  else if (suites === null) broken(`wrote no report: it exited (code ${run.code}) before its suites finished`);
  else if (run.code !== 0 && failed === 0) broken(`exited with code ${run.code} although its tests passed`);
  else if (passed + failed === 0) broken('ran no test');
  return { ...run, passed, failed, skipped, problems };
}
