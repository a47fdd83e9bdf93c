/**
 * The clause table of docs/conformance.md, generated from the kit: every statement of the spec with its
 * clause id and the checks that cover it, or why none can. test/conformance/clauses.test.ts fails when the
 * document's table differs; this script prints the table to paste.
 *
 * Usage: node --import tsx scripts/conformance-table.ts
 */
import { CLAUSES, selectChecks } from '../client/conformance/index.ts';

/** The checks covering a clause, primary first. */
function checksCovering(clause: string) {
  const checks = selectChecks(undefined);
  return [...checks.filter((check) => check.clause === clause), ...checks.filter((check) => check.also?.includes(clause))];
}

/** The ids of the checks covering a clause, primary first. */
export function checksOf(clause: string): string[] {
  return checksCovering(clause).map((check) => check.id);
}

/** The markdown table. */
export function clauseTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = CLAUSES.map((clause) => {
    const named = (
      check: ReturnType<typeof checksCovering>[number],
    ) => (check.strict === undefined ? `\`${check.id}\`` : `\`${check.id}\` (strict: ${check.strict})`);
    const covered = clause.untestable === undefined ? checksCovering(clause.id).map(named).join(', ') : `not checkable: ${clause.untestable}`;
    return `| \`${clause.id}\` | ${cell(clause.statement)} | ${cell(covered)} |`;
  });
  return ['| Clause | Statement | Checks |', '|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`${clauseTable()}\n`);
