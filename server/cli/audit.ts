/**
 * `converter-site-api audit list`: the audit trail through the operator API (docs/operating.md), from
 * OPERATOR_URL with OPERATOR_TOKEN: who changed what and when, newest first, paged and filtered. A table for
 * people, `--json` for scripts.
 *
 * @module
 */
import { type Command, type Io, parseCommandLine, UsageError } from './command.ts';
import { listAudit } from '../../core/operator/audit.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api audit list [options]

Lists the changes made through the operator API of a running server (OPERATOR_URL, e.g.
http://127.0.0.1:8081, and OPERATOR_TOKEN: your own token of OPERATOR_TOKENS, or the shared one), newest
first: when, who (the operator's name; - when none was recorded), action, target and request id.

  --actor <name>      only this operator's changes (a name of OPERATOR_TOKENS, or operator)
  --action <prefix>   only actions that start with this, e.g. release. or order.revoked
  --target <text>     only targets that contain this text (a version, a session id...)
  --limit <n>         at most n changes (1-200, 200 by default)
  --before <id>       the changes below this id: the "next" of the page before (--json shows it)

${OPERATOR_HELP_FOOTER}`;

const FLAGS = {
  json: { type: 'boolean' },
  actor: { type: 'string' },
  action: { type: 'string' },
  target: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
} as const;

export const audit: Command = {
  name: 'audit',
  summary: 'list who changed what and when (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 1);
    if (positionals[0] !== 'list') throw new UsageError('say what to do: list');
    const { actor, action, target, limit, before } = values;
    const answer = await callOperator('audit', prepare(listAudit, { query: { actor, action, target, limit, before } }), io);
    if ('exit' in answer) return answer.exit;
    const json = values.json === true;
    const { next } = answer.value;
    // The table holds the rows only; where the next page starts is a message (stderr).
    if (!json && next !== null) io.stderr(`older changes: add --before ${next}\n`);
    return printAnswer(answer, json, io, ({ entries }) => [
      ['ID', 'AT', 'ACTOR', 'ACTION', 'TARGET', 'REQUEST'],
      ...entries.map((e) => [String(e.id), e.at, e.actor ?? '-', e.action, e.target, e.requestId]),
    ]);
  },
};
