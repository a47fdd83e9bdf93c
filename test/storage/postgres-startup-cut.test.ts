/**
 * A connection lost at its first statement does not take the process down. postgres.js (3.4.9) drops the
 * promise of its array-types query, the first statement of every connection when it reads the types, so a
 * reset there escapes as an unhandled rejection, which ends a Node process (porsager/postgres#1192,
 * #1205, #1223). The client does not ask for the types; this test cuts the first statement of the first
 * connection, whatever it is, and watches for anything that escapes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';

/** Whether these client bytes, after the start-up message, hold a statement (Parse or simple Query). */
function statementSeen(): (chunk: Buffer) => boolean {
  let pending = Buffer.alloc(0);
  let startupRead = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!startupRead) {
        if (pending.length < 4) return false;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return false;
        pending = pending.subarray(length);
        startupRead = true;
        continue;
      }
      if (pending.length < 5) return false;
      const type = String.fromCharCode(pending[0]!);
      if (type === 'P' || type === 'Q') return true;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return false;
      pending = pending.subarray(1 + length);
    }
  };
}

/** A proxy that resets its first connection when that connection sends its first statement. */
async function firstStatementCut(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let connections = 0;
  let cuts = 0;
  const server = createServer((client) => {
    const first = ++connections === 1;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {}).on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    const seen = statementSeen();
    client.on('data', (chunk: Buffer) => {
      if (first && seen(chunk)) {
        cuts++;
        upstream.destroy();
        client.resetAndDestroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cuts: () => cuts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Lets the rejections of this turn be reported (Node reports them once the microtasks have run). */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('a connection reset at its first statement: the next statement answers and nothing escapes', async () => {
  const pg = await testPostgres();
  const proxy = await firstStatementCut(pg.url);
  const escaped: unknown[] = [];
  const record = (reason: unknown) => void escaped.push(reason);
  process.on('unhandledRejection', record);
  const client = createPostgresClient({ url: proxy.url, schema: await pg.freshSchema(), maxConnections: 1 });
  try {
    // The connection's first statement is this one (the driver sends none of its own), so it is refused.
    const first = await client.query('select 1::int as n').then(() => 'answered', (error: { code?: string }) => error.code);
    assert.is(proxy.cuts(), 1, 'the first statement was cut');
    assert.is(first, 'ECONNRESET');
    assert.equal(await client.query('select 2::int as n'), [{ n: 2 }]);
    await turns(5);
    assert.equal(escaped.map(String), [], 'no rejection escaped');
  } finally {
    process.off('unhandledRejection', record);
    await client.close().catch(() => {});
    await proxy.close();
    await closeTestDatabases();
  }
});

test.run();
