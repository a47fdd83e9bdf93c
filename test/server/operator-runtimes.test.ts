/**
 * The operator listener of the Deno and Bun programs (the Node one is test/server/operator-program.test.ts):
 * OPERATOR_PORT serves the operator API on its own port, changes are seen by the public port, the
 * operator paths are not on the public port, and SIGTERM stops both listeners.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { listeningLine, ROOT, spawnServer } from '../_spawn.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const TOKEN = 'runtime-operator-token-0000000000000000';
const ENV = { PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', CONFIG_FILE: join(ROOT, 'example/config.json'), OPERATOR_PORT: '0', OPERATOR_TOKEN: TOKEN };

for (const [runtime, script] of [['deno', 'start:deno'], ['bun', 'start:bun']] as const) {
  test(`${runtime}: OPERATOR_PORT serves the operator API on its own port; the public port serves its changes`, async () => {
    const server = await spawnServer(scripts[script]!, ENV, listeningLine);
    try {
      const line = listeningLine(server.stdout())!;
      const operatorUrl = String(line['operator']);
      assert.match(operatorUrl, /^http:\/\/127\.0\.0\.1:\d+$/, server.output());
      const bearer = { authorization: `Bearer ${TOKEN}` };
      const listed = (await sendRequest(operatorUrl, { path: '/releases', headers: bearer })).json() as {
        releases: unknown[];
        baseline: { version: string; servedPercent: number };
      };
      assert.equal([listed.releases, listed.baseline.version, listed.baseline.servedPercent], [[], '2.4.1', 100]);
      assert.is((await sendRequest(operatorUrl, { path: '/releases' })).status, 401);
      const created = await sendRequest(operatorUrl, {
        method: 'POST',
        path: '/roadmap',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Seen on ${runtime}`, category: 'app' }),
      });
      assert.is(created.status, 201, created.text);
      const roadmap = (await sendRequest(line.url, { path: '/api/v1/roadmap' })).json() as { features: { title: string }[] };
      assert.ok(roadmap.features.some((f) => f.title === `Seen on ${runtime}`));
      assert.is((await sendRequest(line.url, { path: '/releases', headers: bearer })).status, 404);
    } finally {
      assert.is(await server.stop(), 0, server.output());
    }
  });
}

test.run();
