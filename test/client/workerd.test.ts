/**
 * The client runs unchanged in a Cloudflare Worker: a Worker bundled with it (test/client/fixture/worker.ts)
 * runs under workerd and calls the API on a node:http server on 127.0.0.1 through the Worker's own fetch.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { startTestServer } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';
import { bundleWorker } from '../_workerd.ts';

/** A workerd config whose Worker may reach 127.0.0.1 (workerd's default network allows public addresses only). */
function config(apiBaseUrl: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
  bindings = [ (name = "API_BASE_URL", text = ${JSON.stringify(apiBaseUrl)}) ],
);
`;
}

test('a Worker calls the API through the client: a result, the rate-limit state, a redirect and an error', async () => {
  const server = await startTestServer();
  const dir = mkdtempSync(join(tmpdir(), 'client-worker-'));
  await bundleWorker('test/client/fixture/worker.ts', join(dir, 'worker.js'));
  writeFileSync(join(dir, 'config.capnp'), config(`http://127.0.0.1:${server.port}`));
  const child = spawn(join(ROOT, 'node_modules/.bin/workerd'), ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      setTimeout(() => reject(new Error(`workerd did not listen within 30 s:\n${output}`)), 30_000).unref();
      child.stdio[3]?.on('data', (chunk: Buffer) => {
        const event = /"port":(\d+)/.exec(chunk.toString('utf8'));
        if (event) resolve(Number(event[1]));
      });
      void exited.then(() => reject(new Error(`workerd exited:\n${output}`)));
    });
    const answer = await sendRequest(`http://127.0.0.1:${port}`, { path: '/' });
    assert.is(answer.status, 200, `${answer.text}\n${output}`);
    assert.equal(answer.json(), {
      version: { version: '2.4.1', downloadUrl: server.content.download.msiUrl },
      rateLimit: { limit: 120, remaining: 119, reset: 60 },
      installer: server.content.download.msiUrl,
      error: ['unknown_session', 400, 117],
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});

test.run();
