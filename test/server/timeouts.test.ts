/**
 * The node:http server's timeouts, set small by environment (node's timers are real time): each slow
 * client is cut off within a bounded factor of its timeout, not at node's 30 s checking interval.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { memoryLogger } from '../_setup.ts';
import { KEEP_ALIVE_GET, openConnection, parseResponse } from './_raw-http.ts';
import { loadScaled } from '../_load.ts';

const timeouts = suite('timeouts of the node:http server');
const HEADERS_MS = 300;
const REQUEST_MS = 600;
const KEEP_ALIVE_MS = 300;
/** node:http closes an idle connection this long after the keep-alive timeout it advertises, so that clients close first. */
const NODE_KEEP_ALIVE_BUFFER_MS = 1000;
/** How late a cut may come: the checking interval plus a loaded machine's scheduling. */
const SLACK_MS = 1000;
let running: RunningServer | undefined;
let port = 0;

timeouts.before(async () => {
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    STORAGE: 'memory',
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
  };
  running = await startServer(loadConfig(env, process.cwd()), memoryLogger());
  port = Number(new URL(running.url).port);
});

timeouts.after(async () => {
  await running?.stop();
});

/** Sends bytes, then waits for the server to close the connection; gives up after 5 s (node's old interval was 30 s). */
async function cutAfter(bytes: string, from: string): Promise<{ elapsed: number; received: string }> {
  const connection = await openConnection(port, from);
  const start = performance.now();
  connection.socket.write(bytes);
  const giveUp = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000).unref());
  const received = await Promise.race([connection.closed, giveUp]);
  connection.socket.destroy();
  if (received === null) assert.unreachable('the server did not close the connection within 5 s');
  return { elapsed: performance.now() - start, received: received ?? '' };
}

function assertTimeoutAnswer(received: string): void {
  const answer = parseResponse(received);
  assert.is(answer.status, 408);
  assert.is(answer.headers['ratelimit-limit'], '120');
  assert.equal(JSON.parse(answer.body), {
    code: 'request_timeout',
    message: 'The request was not received in time.',
    resolution: 'Send the whole request promptly; retry on a new connection.',
  });
}

timeouts('headers not finished within HTTP_HEADERS_TIMEOUT_MS: 408 request_timeout as JSON, connection closed', async () => {
  const { elapsed, received } = await cutAfter('GET /api/v1/version HTTP/1.1\r\nHost: t\r\n', '127.0.10.1');
  assert.ok(elapsed >= HEADERS_MS - 20 && elapsed < HEADERS_MS + loadScaled(SLACK_MS), `cut after ${Math.round(elapsed)} ms`);
  assertTimeoutAnswer(received);
});

timeouts('a body not finished within HTTP_REQUEST_TIMEOUT_MS: 408 request_timeout as JSON, connection closed', async () => {
  const head = 'POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
  const { elapsed, received } = await cutAfter(`${head}{"description":`, '127.0.10.2');
  assert.ok(elapsed >= REQUEST_MS - 20 && elapsed < REQUEST_MS + loadScaled(SLACK_MS), `cut after ${Math.round(elapsed)} ms`);
  assertTimeoutAnswer(received);
  assert.is(running!.server.listening, true);
});

timeouts('an idle keep-alive connection is closed 1 s after HTTP_KEEP_ALIVE_TIMEOUT_MS (node waits that long past what it advertises)', async () => {
  const connection = await openConnection(port, '127.0.10.3');
  connection.socket.write(KEEP_ALIVE_GET);
  await connection.responses(1);
  const start = performance.now();
  await connection.closed;
  const elapsed = performance.now() - start;
  const expected = KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS;
  assert.ok(elapsed >= expected - 20 && elapsed < expected + loadScaled(SLACK_MS), `closed after ${Math.round(elapsed)} ms`);
  const answer = parseResponse(connection.received());
  assert.is(answer.status, 200);
  assert.is(answer.headers['keep-alive'], `timeout=${Math.floor(KEEP_ALIVE_MS / 1000)}`);
});

timeouts.run();
