/**
 * The report as text, TAP 14, JUnit XML or JSON, with expected failures marked as such.
 */
import { type Expectations, outcomeOf } from './expectations.ts';
import type { CheckResult, ConformanceReport } from './types.ts';

export const REPORT_FORMATS = ['text', 'tap', 'junit', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function text(report: ConformanceReport, expectations: Expectations | null): string {
  const lines = report.checks.map((check) => {
    const outcome = outcomeOf(check, expectations);
    const label = check.status === 'fail' && outcome === 'as-expected'
      ? 'FAIL (expected)'
      : outcome === 'unexpected-pass'
      ? 'PASS (expected to fail)'
      : check.status.toUpperCase();
    const detail = check.status === 'pass' ? check.title : `${check.title}: ${oneLine(check.message)}`;
    return `${label.padEnd(5)} ${check.id} [${check.clause}] ${detail}`;
  });
  return `${lines.join('\n')}\n\n${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped\n`;
}

const yamlString = (value: string) => JSON.stringify(oneLine(value));

function tap(report: ConformanceReport, expectations: Expectations | null): string {
  const lines = ['TAP version 14', `1..${report.checks.length}`];
  report.checks.forEach((check, i) => {
    const name = `${i + 1} - ${check.id}: ${oneLine(check.title).replaceAll('#', '\\#')}`;
    const outcome = outcomeOf(check, expectations);
    if (check.status === 'skip') lines.push(`ok ${name} # SKIP ${oneLine(check.message)}`);
    else if (check.status === 'pass') lines.push(`ok ${name}${outcome === 'unexpected-pass' ? ' # expected to fail' : ''}`);
    else lines.push(`not ok ${name}${outcome === 'as-expected' ? ' # TODO expected failure' : ''}`);
    lines.push('  ---', `  clause: ${yamlString(check.clause)}`, `  message: ${yamlString(check.message)}`, '  ...');
  });
  return `${lines.join('\n')}\n`;
}

const xml = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

function testcase(check: CheckResult, expectations: Expectations | null): string {
  const open = `    <testcase classname="${xml(check.clause)}" name="${xml(`${check.id}: ${check.title}`)}"`;
  if (check.status === 'pass') return `${open}/>`;
  const expected = check.status === 'fail' && outcomeOf(check, expectations) === 'as-expected';
  if (check.status === 'skip' || expected) {
    return `${open}>\n      <skipped message="${xml(expected ? `expected failure: ${check.message}` : check.message)}"/>\n    </testcase>`;
  }
  return `${open}>\n      <failure message="${xml(oneLine(check.message))}">${xml(check.message)}</failure>\n    </testcase>`;
}

function junit(report: ConformanceReport, expectations: Expectations | null): string {
  const failures = report.checks.filter((check) => check.status === 'fail' && outcomeOf(check, expectations) !== 'as-expected').length;
  const skipped = report.checks.length - report.passed - failures;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${report.checks.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="converter-site-api conformance" tests="${report.checks.length}" failures="${failures}" skipped="${skipped}">`,
    ...report.checks.map((check) => testcase(check, expectations)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * Formats a report.
 *
 * @param report The report of `runConformance`.
 * @param format text, tap, junit or json.
 * @param expectations Known failures, marked as expected in the output.
 */
export function formatReport(report: ConformanceReport, format: ReportFormat, expectations: Expectations | null = null): string {
  switch (format) {
    case 'text':
      return text(report, expectations);
    case 'tap':
      return tap(report, expectations);
    case 'junit':
      return junit(report, expectations);
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
  }
}
