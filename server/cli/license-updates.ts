/**
 * `converter-site-api license updates <key or email>` (issue 56): which versions a license may install, and
 * why, from the operator API (GET /licenses/updates, OPERATOR_URL and OPERATOR_TOKEN): one line per stored
 * release with its verdict and reason, highest first; `--json` for the API's answer.
 *
 * @module
 */
import { type LicenseUpdates, licenseUpdates } from '../../core/operator/license-updates.ts';
import { EXIT, type Io, parseCommandLine, UsageError } from './command.ts';
import { callOperator, prepare, table } from './operator-api.ts';

const VERDICTS: Record<LicenseUpdates['releases'][number]['verdict'], string> = {
  covered: 'covered',
  fallback_bug_fix: 'fallback bug fix',
  paid_upgrade: 'paid upgrade',
  revoked: 'revoked',
};

/** One line per stored release: version, verdict, reason. */
function releaseLines(updates: LicenseUpdates): string {
  if (updates.releases.length === 0) return 'no release is stored\n';
  return table([['VERSION', 'VERDICT', 'REASON'], ...updates.releases.map((r) => [r.version, VERDICTS[r.verdict], r.reason])]);
}

/** What the lines are judged by, for the person reading them (stderr). */
function summary(updates: LicenseUpdates): string {
  const keys = updates.keys.map((k) =>
    `${k.product} key of ${k.session} (${k.state}): ${k.windowDays === null ? 'lifetime' : `${k.windowDays} days from ${k.issuedOn}`}`
  );
  const window = updates.updatesUntil === null
    ? 'lifetime updates'
    : `updates until ${updates.updatesUntil.slice(0, 10)}, then ${
      updates.fallbackLine === null ? 'none (no live release within the window)' : `bug fixes of ${updates.fallbackLine}`
    }`;
  return `${keys.join('\n')}\n${updates.licenses === 'revoked' ? 'revoked: ' : ''}${window}; the baseline ${updates.baseline} is covered by every license\n`;
}

/**
 * Runs `license updates`.
 *
 * @param args The words after `updates`: a key (in as many words as it was typed in) or an email, `--channel`
 *   (stable by default) and `--json`.
 */
export async function runLicenseUpdates(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' }, channel: { type: 'string' } }, args.length);
  const given = positionals.join(' ').trim();
  if (given === '') throw new UsageError("license updates needs a license key or a buyer's email");
  const query = { ...(given.includes('@') ? { email: given } : { key: given }), channel: values.channel };
  const answer = await callOperator('license updates', prepare(licenseUpdates, { query }), io);
  if ('exit' in answer) return answer.exit;
  if (values.json === true) {
    io.stdout(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
    return EXIT.ok;
  }
  io.stderr(summary(answer.value));
  io.stdout(releaseLines(answer.value));
  return EXIT.ok;
}
