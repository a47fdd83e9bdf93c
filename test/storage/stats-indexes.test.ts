/**
 * The operator's numbers (GET /stats) read a range of days from an index, not the whole table: feedback is
 * kept for good and paid sessions pile up, so a scan grows with every entry ever stored. The adapters'
 * own statements are planned (EXPLAIN, sequential scans off) on PostgreSQL (DATABASE_URL, else the PGlite
 * stand-in) and on an in-process PGlite, both migrated as the server migrates them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient, SqlValue } from '../../adapters/sql/client.ts';
import { createSqlInbox } from '../../adapters/sql/inbox.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlOrders } from '../../adapters/sql/orders.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

interface PlanNode {
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The indexes a plan reads a range of (an Index Cond), not the whole of (a full index scan with a filter). */
function rangesRead(node: PlanNode): string[] {
  const own = node['Index Name'] !== undefined && node['Index Cond'] !== undefined ? [node['Index Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(rangesRead)];
}

/** The index ranges in the plan of every statement `read` sends through the client (none is run). */
async function indexesUsed(client: SqlClient, read: (planner: SqlClient) => Promise<unknown>): Promise<string[]> {
  const used: string[] = [];
  const plan = <Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]> =>
    client.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      const [row] = await tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${text}`, params);
      const json = row!['QUERY PLAN'];
      const [top] = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: PlanNode }];
      used.push(...rangesRead(top.Plan));
      return [];
    });
  await read({ ...client, query: plan });
  return used;
}

for (const [name, open] of [['PostgreSQL', () => postgresSchema({ maxConnections: 1 })], ['PGlite', pgliteSchema]] as const) {
  test(`${name}: feedback by day reads feedback_received_at; orders by day read checkout_sessions_paid`, async () => {
    const { client, drop } = await open();
    try {
      await migrate(client);
      const day = 20_000;
      assert.equal(await indexesUsed(client, (planner) => createSqlInbox(planner).countByDay(day - 29, day)), ['feedback_received_at']);
      assert.equal(await indexesUsed(client, (planner) => createSqlOrders(planner).countByDay(day - 29, day)), ['checkout_sessions_paid']);
    } finally {
      await drop();
    }
  });

  test(`${name}: POST /licenses/validate finds a key's order by the key indexes and the session's primary key, whatever the table's size`, async () => {
    const { client, drop } = await open();
    try {
      await migrate(client);
      const used = await indexesUsed(client, (planner) => createSqlOrders(planner).ofLicenseKey('key/abc.def'));
      assert.equal([...new Set(used)].sort(), ['checkout_sessions_pkey', 'licenses_pkey', 'licenses_plus_key', 'licenses_standard_key']);
    } finally {
      await drop();
    }
  });
}

test.after(closeTestDatabases);
test.run();
