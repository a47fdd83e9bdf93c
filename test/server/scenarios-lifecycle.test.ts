/**
 * The scenario server's start and stop as a desktop team meets them: a request that arrives while the
 * scenarios are still being made waits for them (it was answered 400 with a JavaScript error text for
 * about half a second after start), its own errors are JSON, and `npm run scenarios` stops when npm gets
 * SIGTERM (npm exits without passing it on, and the server held its port as an orphan).
 */
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listenScenarios } from '../../server/scenarios/listen.ts';
import { createScenarioServer } from '../../server/scenarios/server.ts';
import { portAnswers, ROOT } from '../_spawn.ts';

const test = suite('scenario server lifecycle');

test('a request sent before the scenarios are made waits for them and is answered', async () => {
  let early: Promise<Response> | null = null;
  const listening = await listenScenarios({
    host: '127.0.0.1',
    port: 0,
    make: async (baseUrl) => {
      early = fetch(`${baseUrl}/scenarios`);
      // Lets the request reach the server while the scenarios are not made yet (nothing is timed by it).
      await new Promise((resolve) => setTimeout(resolve, 50));
      return createScenarioServer({ baseUrl });
    },
  });
  try {
    const answer = await early!;
    assert.is(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.ok(Array.isArray(((await answer.json()) as { scenarios: unknown[] }).scenarios));
  } finally {
    await listening.close();
  }
});

test('a body over 64 KiB is 413 payload_too_large as JSON', async () => {
  const listening = await listenScenarios({ host: '127.0.0.1', port: 0 });
  try {
    const answer = await fetch(`${listening.url}/scenario/no-update/api/v1/feedback`, { method: 'POST', body: 'x'.repeat(65 * 1024) });
    assert.is(answer.status, 413);
    assert.equal(await answer.json(), {
      code: 'payload_too_large',
      message: 'The request body is larger than 64 KiB.',
      resolution: 'No scenario takes a body that large: send the request as the app would.',
    });
  } finally {
    await listening.close();
  }
});

test('npm run scenarios stops when npm gets SIGTERM: the port is closed', async () => {
  const child = spawn('npm', ['run', '--silent', 'scenarios', '--', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = /^http:\/\/\S+$/m.exec(output);
      if (line) resolve(new URL(line[0]));
    });
    child.once('close', () => reject(new Error(`npm run scenarios ended before listening:\n${output}`)));
  });
  const port = Number(url.port);
  assert.ok(await portAnswers(port), 'it listens');
  child.kill('SIGTERM');
  await closed;
  assert.not.ok(await portAnswers(port), `the port is closed once npm has gone:\n${output}`);
});

test.run();
