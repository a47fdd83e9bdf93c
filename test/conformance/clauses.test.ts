/**
 * The kit's clauses and checks agree with each other and with docs/conformance.md: every check names
 * known clauses, every testable clause has a check, no untestable one has, and the document's clause table
 * is the one scripts/conformance-table.ts generates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLAUSES, selectChecks } from '../../client/conformance/index.ts';
import { checksOf, clauseTable } from '../../scripts/conformance-table.ts';
import { ROOT } from '../_spawn.ts';

const checks = selectChecks(undefined);
const known = new Set(CLAUSES.map((clause) => clause.id));

test('check ids and clause ids are unique', () => {
  assert.is(new Set(checks.map((check) => check.id)).size, checks.length);
  assert.is(known.size, CLAUSES.length);
});

test('every check names clauses of the list', () => {
  const unknown = checks.flatMap((check) => [check.clause, ...(check.also ?? [])].filter((id) => !known.has(id)).map((id) => `${check.id}: ${id}`));
  assert.equal(unknown, []);
});

test('every testable clause has a check; no untestable clause has one', () => {
  assert.equal(CLAUSES.filter((clause) => clause.untestable === undefined && checksOf(clause.id).length === 0).map((clause) => clause.id), []);
  assert.equal(CLAUSES.filter((clause) => clause.untestable !== undefined && checksOf(clause.id).length > 0).map((clause) => clause.id), []);
});

test('every section of the spec has its clauses', () => {
  const spec = readFileSync(join(ROOT, 'spec/public-api.md'), 'utf8');
  const rules = [...spec.matchAll(/^(\d)\. /gm)].length;
  // Nine rules per operation and five of versioning, each with a clause of its number.
  assert.is(rules, 14);
  for (let rule = 1; rule <= 9; rule++) assert.ok(known.has(`rules.${rule}`), `rules.${rule}`);
  for (let rule = 1; rule <= 5; rule++) assert.ok(known.has(`versioning.${rule}`), `versioning.${rule}`);
  const codes = [...spec.matchAll(/^\| ([a-z_]+) \| .* \| (\d{3}) \|$/gm)].map((m) => m[1]);
  assert.equal(codes, ['not_found', 'rate_limited', 'description_required']);
  for (const code of codes) assert.ok(known.has(`errors.${code}`), `errors.${code}`);
});

test('docs/conformance.md holds the generated clause table', () => {
  const docs = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
  assert.ok(docs.includes(`${clauseTable()}\n`), 'run `node --import tsx scripts/conformance-table.ts` and paste its table into docs/conformance.md');
});

test.run();
