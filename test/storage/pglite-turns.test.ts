/**
 * PGlite runs on the server's own thread: a long read of many statements (an export, page after page)
 * must leave the event loop a turn between statements, so that a socket is answered meanwhile. Here a
 * request on a real socket is sent, then 500 statements run one after another: its answer comes before
 * the last of them (it came after all of them when PGlite settled each statement with promises alone).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { closeTestDatabases, pgliteSchema } from '../_databases.ts';

test('a request on a socket is answered between the statements of a long read', async () => {
  const { client, drop } = await pgliteSchema();
  await migrate(client);
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    let statements = 0;
    let answeredAfter = -1;
    const answered = fetch(`http://127.0.0.1:${port}/`).then(async (response) => {
      await response.text();
      answeredAfter = statements;
    });
    for (let i = 0; i < 500; i++) {
      await client.query('select 1');
      statements++;
    }
    await answered;
    assert.ok(answeredAfter >= 0 && answeredAfter < 500, `answered after ${answeredAfter} of 500 statements`);
  } finally {
    server.close();
    await drop();
  }
});

test.after(closeTestDatabases);
test.run();
