/**
 * `converter-site-api conformance --base-url URL`: the conformance kit (converter-site-api/conformance)
 * against any implementation of the public API spec, with its report as text, TAP, JUnit XML or JSON and
 * known failures from an expectations file (docs/conformance.md).
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import {
  applyExpectations,
  type ConformanceOptions,
  type Expectations,
  formatReport,
  payByPost,
  readExpectations,
  REPORT_FORMATS,
  type ReportFormat,
  runConformance,
  selectChecks,
  writeExpectations,
} from '../../client/conformance/index.ts';
import { type Command, EXIT, type Io, parseCommandLine, UsageError } from './command.ts';

const HELP = `usage: converter-site-api conformance --base-url <url> [options]

Checks an implementation of the public API spec at <url> (e.g. http://127.0.0.1:8080), one check per
statement of the spec, each naming its clause (docs/conformance.md). The report goes to stdout, progress
to stderr. Against the default quota (120 requests per 60 s per client) the run paces itself and says how
long it may wait.

options:
  --base-url <url>                the target's base URL, without /api/v1 (required)
  --format text|tap|junit|json    the report's format (text by default)
  --expect <file>                 known failures (JSON); they do not fail the run
  --update-expect <file>          write the run's failures to <file> as the known failures, and exit 0
  --client-address-header <name>  for a target that trusts a proxy header (e.g. x-forwarded-for with
                                  TRUSTED_PROXIES=127.0.0.1/32): a synthetic client address per check
                                  (198.18.0.0/15, never connected to), at full speed
  --pay-url <template>            pays a checkout by POST to <template> on the target, {sessionId}
                                  replaced; this server's simulator: /checkout/simulator/{sessionId}/pay
  --only <ids>                    only these checks or clauses (comma-separated)
  --strict                        run the strict checks too: rules the spec implies but does not state
                                  (skipped by default, so an implementation the spec allows passes)
  --timeout <seconds>             how long one request may take, its body included (10 by default)
  --deadline <seconds>            how long the whole run may take (600 by default); checks left then
                                  are reported as not run
  --max-body <bytes>              the most of one body the kit reads (1048576 by default); a larger
                                  body fails its check

exit codes: 0 every check passed or failed as expected, 1 a check failed unexpectedly, 64 usage error
`;

const FLAGS = {
  'base-url': { type: 'string' },
  format: { type: 'string' },
  expect: { type: 'string' },
  'update-expect': { type: 'string' },
  'client-address-header': { type: 'string' },
  'pay-url': { type: 'string' },
  only: { type: 'string' },
  strict: { type: 'boolean' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'max-body': { type: 'string' },
} as const;

/** A positive number flag (seconds or bytes), or undefined when absent. */
function positiveOf(value: string | undefined, flag: string, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const pattern = integer ? /^\d{1,12}$/ : /^\d{1,9}(\.\d{1,3})?$/;
  if (!pattern.test(value) || Number(value) <= 0) {
    throw new UsageError(`--${flag} must be a positive ${integer ? 'whole number' : 'number'}, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

function baseUrlOf(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--base-url is required');
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value;
  } catch {
    // Falls through to the usage error.
  }
  throw new UsageError(`--base-url must be an http or https URL, not ${JSON.stringify(value)}`);
}

async function expectationsOf(file: string | undefined): Promise<Expectations | null> {
  if (file === undefined) return null;
  const content = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--expect ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  try {
    return readExpectations(content);
  } catch (error) {
    throw new UsageError(`--expect ${file}: ${(error as Error).message}`);
  }
}

/**
 * Runs the command.
 *
 * @param args The words after `conformance`.
 * @param io Where the report and progress go.
 * @param fetchTarget The transport (global fetch by default; tests pass their own).
 */
export async function runConformanceCommand(args: string[], io: Io, fetchTarget?: ConformanceOptions['fetch']): Promise<number> {
  const { values } = parseCommandLine(args, FLAGS);
  const baseUrl = baseUrlOf(text(values['base-url']));
  const format = (text(values['format']) ?? 'text') as ReportFormat;
  if (!REPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
  const header = text(values['client-address-header']);
  if (header !== undefined && !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) {
    throw new UsageError(`--client-address-header must be a header name, not ${JSON.stringify(header)}`);
  }
  const expectations = await expectationsOf(text(values['expect']));
  const payUrl = text(values['pay-url']);
  const only = text(values['only'])?.split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (only !== undefined && selectChecks(only).length === 0) {
    throw new UsageError(`--only names no check or clause of the kit: ${JSON.stringify(only.join(','))}`);
  }
  const timeout = positiveOf(text(values['timeout']), 'timeout', false);
  const deadline = positiveOf(text(values['deadline']), 'deadline', false);
  const maxBody = positiveOf(text(values['max-body']), 'max-body', true);
  const report = await runConformance({
    ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }),
    ...(deadline === undefined ? {} : { deadlineMs: deadline * 1000 }),
    ...(maxBody === undefined ? {} : { maxBodyBytes: maxBody }),
    baseUrl,
    ...(fetchTarget ? { fetch: fetchTarget } : {}),
    ...(header === undefined ? {} : { clientAddressHeader: header }),
    ...(payUrl === undefined ? {} : { payCheckout: payByPost(payUrl) }),
    ...(only === undefined ? {} : { only }),
    ...(values['strict'] === true ? { strict: true } : {}),
    log: (line) => io.stderr(`${line}\n`),
  });
  const update = text(values['update-expect']);
  if (update !== undefined) {
    await writeFile(update, writeExpectations(report));
    io.stdout(formatReport(report, format, readExpectations(writeExpectations(report))));
    io.stderr(`wrote ${report.failed} known failures to ${update}\n`);
    return EXIT.ok;
  }
  io.stdout(formatReport(report, format, expectations));
  const { ok, unexpectedPasses } = applyExpectations(report, expectations);
  for (const check of unexpectedPasses) io.stderr(`${check.id} passed but is listed as a known failure: remove it from the expectations file\n`);
  return ok ? EXIT.ok : EXIT.failed;
}

export const conformance: Command = {
  name: 'conformance',
  summary: 'check an implementation of the public API spec at a base URL',
  help: HELP,
  run: (args: string[], io: Io) => runConformanceCommand(args, io),
  endsProcess: true,
};
