/**
 * The in-process target of the HTTP contract suite: the core app (createApp over memory storage and the
 * simulator) behind createNodeListener on 127.0.0.1, in the test's own process. It runs the contract on
 * the library as hosts embed it, without the standalone program around it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendRequest } from './_client.ts';
import { startTestServer } from './_setup.ts';
import { ROOT } from './_spawn.ts';
import type { Target } from './_targets.ts';

const example = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as {
  offer: Record<string, unknown>;
  download: { msiUrl: string };
  corsOrigins: string[];
};

/** Client addresses 127.0.0.2 to .253, as the other targets give them. */
function clientCounter(): () => string {
  let next = 2;
  return () => {
    if (next > 253) throw new Error('out of loopback client addresses');
    return `127.0.0.${next++}`;
  };
}

export const inProcess: Target = {
  name: 'in-process',
  scope: 'full',
  async start() {
    const server = await startTestServer({ corsOrigins: example.corsOrigins });
    const baseUrl = `http://127.0.0.1:${server.port}`;
    return {
      name: 'in-process',
      baseUrl,
      publicBaseUrl: 'http://localhost:8080',
      served: { offer: example.offer, download: example.download, version: await server.version.current() },
      newClient: clientCounter(),
      request: (init) => sendRequest(baseUrl, init),
      fetch: (input, init) => fetch(input, init),
      stop: () => server.close(),
    };
  },
};
