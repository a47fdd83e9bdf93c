import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { type ManualClock, manualClock, memoryLogger, sendHttp } from '../_setup.ts';
import { KEEP_ALIVE_GET, openConnection, parseResponse, type RawConnection } from './_raw-http.ts';

const caps = suite('connection caps of the node:http server');
let running: RunningServer | undefined;
let logger = memoryLogger();
let held: RawConnection[] = [];
let clock: ManualClock = manualClock();

async function start(env: Record<string, string>): Promise<RunningServer> {
  logger = memoryLogger();
  clock = manualClock();
  running = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', ...env }, process.cwd()), logger, clock);
  return running;
}

caps.after.each(async () => {
  for (const connection of held) connection.socket.destroy();
  held = [];
  await running?.stop();
  running = undefined;
});

/** A keep-alive connection that was answered once and stays open. */
async function hold(port: number, from: string): Promise<RawConnection> {
  const connection = await openConnection(port, from);
  connection.socket.write(KEEP_ALIVE_GET);
  const [answer] = await connection.responses(1);
  assert.is(parseResponse(answer ?? '').status, 200, `a held connection from ${from} was answered`);
  held.push(connection);
  return connection;
}

/** A connection the server closes at once: nothing is answered. */
async function assertRefused(port: number, from: string): Promise<void> {
  const connection = await openConnection(port, from);
  connection.socket.write(KEEP_ALIVE_GET);
  assert.is(await connection.closed, '', `the connection from ${from} got no answer`);
}

/** Waits until the server counts `count` open connections (a client's close reaches it asynchronously). */
async function serverConnections(server: RunningServer, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<number>((resolve) => server.server.getConnections((_error, n) => resolve(n)));
    if (open === count) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.unreachable(`the server never counted ${count} connections`);
}

caps('MAX_CONNECTIONS_PER_CLIENT=3: a fourth connection from one address is closed at once; others and a freed slot are served', async () => {
  const server = await start({ MAX_CONNECTIONS_PER_CLIENT: '3' });
  const port = Number(new URL(server.url).port);
  for (let i = 0; i < 3; i++) await hold(port, '127.0.8.1');
  await assertRefused(port, '127.0.8.1');
  assert.is((await sendHttp(port, { path: '/api/v1/version', from: '127.0.8.2' })).status, 200);
  held.shift()!.socket.destroy();
  await serverConnections(server, 2);
  await hold(port, '127.0.8.1');
  const warning = logger.lines.find((l) => l.message === 'connection cap reached; new connections over it are closed');
  assert.equal(warning?.fields, { cap: 'per-client', limit: 3, peer: '127.0.8.1' });
});

caps('a trusted proxy is exempt from the per-client cap', async () => {
  const server = await start({ MAX_CONNECTIONS_PER_CLIENT: '2', TRUSTED_PROXIES: '127.0.8.9' });
  const port = Number(new URL(server.url).port);
  for (let i = 0; i < 5; i++) await hold(port, '127.0.8.9');
  await hold(port, '127.0.8.10');
  await hold(port, '127.0.8.10');
  await assertRefused(port, '127.0.8.10');
});

caps('MAX_CONNECTIONS=4: a fifth connection, from any address, is closed at once while none of the four is stalled, until one ends', async () => {
  const server = await start({ MAX_CONNECTIONS: '4' });
  const port = Number(new URL(server.url).port);
  for (let i = 1; i <= 4; i++) await hold(port, `127.0.9.${i}`);
  await assertRefused(port, '127.0.9.5');
  held.pop()!.socket.destroy();
  await serverConnections(server, 3);
  await hold(port, '127.0.9.5');
  const warning = logger.lines.find((l) => l.message === 'connection cap reached; new connections over it are closed');
  assert.equal(warning?.fields, { cap: 'total', limit: 4, peer: '127.0.9.5' });
});

/** A connection that sent a request's headers and one byte of its 100-byte body, and nothing since. */
async function slowUpload(port: number, from: string): Promise<RawConnection> {
  const connection = await openConnection(port, from);
  connection.socket.write('POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
  held.push(connection);
  return connection;
}

caps('at MAX_CONNECTIONS, a new connection closes the stalled one (a slow upload) open longest among the clients holding the most, and is served', async () => {
  const server = await start({ MAX_CONNECTIONS: '4' });
  const port = Number(new URL(server.url).port);
  const slow = [await slowUpload(port, '127.0.9.11'), await slowUpload(port, '127.0.9.12'), await slowUpload(port, '127.0.9.13')];
  await hold(port, '127.0.9.14');
  await serverConnections(server, 4);
  // Within a second of opening, no connection counts as stalled: the cap refuses as before.
  await assertRefused(port, '127.0.9.15');
  clock.advance(1000);
  const bystander = await sendHttp(port, { path: '/api/v1/version', from: '127.0.9.16' });
  assert.is(bystander.status, 200);
  assert.is(await slow[0]!.closed, '', 'the slow upload open longest was closed, unanswered');
  const warning = logger.lines.find((l) =>
    l.message === 'connection cap reached; a stalled connection of the client holding the most is closed for each new one'
  );
  assert.equal(warning?.fields, { cap: 'total', limit: 4, closed: '127.0.9.11' });
});

caps('a flood of slow uploads from a few addresses cannot keep a bystander out', async () => {
  const server = await start({ MAX_CONNECTIONS: '12' });
  const port = Number(new URL(server.url).port);
  for (let i = 0; i < 12; i++) await slowUpload(port, `127.0.10.${1 + (i % 3)}`);
  await serverConnections(server, 12);
  clock.advance(1000);
  for (let i = 0; i < 5; i++) {
    // The flood, at its share of the cap, cannot take a place; a bystander can.
    const again = await slowUpload(port, `127.0.10.${1 + (i % 3)}`);
    assert.is(await again.closed, '', 'a client holding its share was refused at the cap');
    const bystander = await sendHttp(port, { path: '/api/v1/version', from: `127.0.10.${20 + i}` });
    assert.is(bystander.status, 200, `bystander ${i} was served`);
    // The flood takes the freed place again.
    await serverConnections(server, 11);
    await slowUpload(port, `127.0.10.${1 + (i % 3)}`);
    await serverConnections(server, 12);
    clock.advance(1000);
  }
});

caps('the operator listener has the caps too: a fourth connection from one address is closed; its total is a sixteenth (at least 8)', async () => {
  const server = await start({
    MAX_CONNECTIONS_PER_CLIENT: '3',
    MAX_CONNECTIONS: '40',
    OPERATOR_PORT: '0',
    OPERATOR_TOKEN: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8',
  });
  const port = Number(new URL(server.operatorUrl!).port);
  const openApi = 'GET /openapi.json HTTP/1.1\r\nHost: t\r\n\r\n';
  const holdOperator = async (from: string) => {
    const connection = await openConnection(port, from);
    connection.socket.write(openApi);
    const [answer] = await connection.responses(1);
    assert.is(parseResponse(answer ?? '').status, 200, `a held operator connection from ${from} was answered`);
    held.push(connection);
  };
  for (let i = 0; i < 3; i++) await holdOperator('127.0.9.1');
  const over = await openConnection(port, '127.0.9.1');
  over.socket.write(openApi);
  assert.is(await over.closed, '', 'the fourth connection got no answer');
  for (let i = 0; i < 5; i++) await holdOperator(`127.0.9.${2 + i}`);
  const total = await openConnection(port, '127.0.9.20');
  total.socket.write(openApi);
  assert.is(await total.closed, '', 'past the total of 8: closed');
  assert.is((await sendHttp(Number(new URL(server.url).port), { path: '/api/v1/version', from: '127.0.9.30' })).status, 200, 'the public port serves');
  assert.ok(logger.lines.some((l) => l.message === 'connection cap reached; new connections over it are closed' && l.fields?.['listener'] === 'operator'));
});

caps.run();
