/**
 * The operator's long reads (Inbox pages, the CSV export, `npm run export`) go down the primary key a page
 * at a time, with no sort: feedback is kept for good, so a page that sorts the table grows with every entry
 * ever stored (423 ms a page on a million rows when the order was the float8 alias of id). Planned with
 * EXPLAIN, sequential scans and sorts off, on PostgreSQL (DATABASE_URL, else the PGlite stand-in) and on an
 * in-process PGlite, both migrated as the server migrates them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient, SqlValue } from '../../adapters/sql/client.ts';
import { sqlExportSource } from '../../adapters/sql/export.ts';
import { createSqlInbox } from '../../adapters/sql/inbox.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Each node of a plan as "Node Type" or "Node Type on index". */
function nodes(node: PlanNode): string[] {
  const own = node['Index Name'] === undefined ? node['Node Type'] : `${node['Node Type']} on ${node['Index Name']}`;
  return [own, ...(node.Plans ?? []).flatMap(nodes)];
}

/** The plan of every statement `read` sends through the client (none is run). */
async function plans(client: SqlClient, read: (planner: SqlClient) => Promise<unknown>): Promise<string[][]> {
  const found: string[][] = [];
  const plan = <Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]> =>
    client.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      await tx.query('set local enable_sort = off');
      const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${text}`, params);
      const json = row!['QUERY PLAN'];
      const [top] = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: PlanNode }];
      found.push(nodes(top.Plan));
      return [];
    });
  await read({ ...client, query: plan });
  return found;
}

for (const [name, open] of [['PostgreSQL', () => postgresSchema({ maxConnections: 1 })], ['PGlite', pgliteSchema]] as const) {
  test(`${name}: an Inbox page, filtered or not, and an export page walk feedback_pkey with no sort`, async () => {
    const { client, drop } = await open();
    try {
      await migrate(client);
      const first = await plans(client, (planner) => createSqlInbox(planner).list({ limit: 50 }));
      const later = await plans(client, (planner) => createSqlInbox(planner).list({ limit: 500, before: 123_456, type: 'review', handled: false }));
      const exported = await plans(client, async (planner) => {
        for await (const entry of sqlExportSource(planner).feedbackEntries()) void entry;
      });
      assert.equal(first, [['Limit', 'Index Scan on feedback_pkey']]);
      assert.equal(later, [['Limit', 'Index Scan on feedback_pkey']]);
      assert.equal(exported, [['Limit', 'Index Scan on feedback_pkey']]);
    } finally {
      await drop();
    }
  });
}

test.after(closeTestDatabases);
test.run();
