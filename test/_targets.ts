/**
 * The targets of the HTTP contract suite (h3's describeMatrix): the standalone server under Node, Deno
 * and Bun, each spawned from its package.json script on 127.0.0.1 with PORT=0 (the program names the port
 * it bound in its 'listening' line); the Worker under workerd on PostgreSQL, spawned the same way from
 * `npm run start:workers`; and server/worker.ts under workerd as wrangler bundles it (smoke subset). A
 * runtime that is missing fails its target: nothing is skipped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpInit, type HttpResult, sendRequest } from './_client.ts';
import { testPostgres } from './_databases.ts';
import { listeningLine, ROOT, spawnServer } from './_spawn.ts';
import { startWorkerd, WORKER_VARS } from './_workerd.ts';

/** The content a target serves, for the suite's expected bodies. */
export interface ServedContent {
  offer: Record<string, unknown>;
  /** No nonWindowsUrl in the example: the shipped page at <publicBaseUrl>/windows-only. */
  download: { msiUrl: string; nonWindowsUrl?: string };
  version: string;
}

/** A target that is serving. */
export interface RunningTarget {
  name: string;
  baseUrl: string;
  /** The address the target puts in its links (checkout pages): the standalone server's follows its port. */
  publicBaseUrl: string;
  served: ServedContent;
  /** A client address no other test has used, so each test starts with a full rate-limit quota. */
  newClient(): string;
  /** Sends one request as the client `from` (127.0.0.1 when omitted). */
  request(init: HttpInit): Promise<HttpResult>;
  /** A fetch that reaches the target as the client 127.0.0.1, which only the typed client's spec uses. */
  fetch(input: string, init: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/** One way to run the API. `smoke` targets run only the tests marked smoke. */
export interface Target {
  name: string;
  scope: 'full' | 'smoke';
  start(): Promise<RunningTarget>;
}

const example = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as {
  offer: Record<string, unknown>;
  download: ServedContent['download'];
};

/** Client addresses 127.0.0.2 to .253; .254 fetches the OpenAPI document (DOCUMENT_CLIENT). */
function clientCounter(): () => string {
  let next = 2;
  return () => {
    if (next > 253) throw new Error('out of loopback client addresses');
    return `127.0.0.${next++}`;
  };
}

/**
 * A config file that differs from the shipped example (trial limit, version), so that serving it proves
 * CONFIG_FILE was read.
 */
function writeTestConfig(dir: string): { file: string; served: ServedContent } {
  const offer = { ...example.offer, trialFileLimit: 7 };
  writeFileSync(join(dir, 'version.txt'), 'v3.1.4\n');
  const file = join(dir, 'config.json');
  const config = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...config, exampleContent: false, offer, versionFile: 'version.txt' }));
  return { file, served: { offer, download: example.download, version: '3.1.4' } };
}

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/**
 * A server started by one package.json script, on a test config file, with `env` added.
 *
 * @param name The target's name.
 * @param script The package.json script.
 * @param runtime The runtime its 'listening' line must name.
 * @param storage The storage settings and what to do once the server stopped.
 */
function scripted(
  name: string,
  script: string,
  runtime: string,
  storage: () => Promise<{ env: Record<string, string>; release(): Promise<void> }>,
): Target {
  return {
    name,
    scope: 'full',
    async start() {
      const command = scripts[script];
      if (!command) throw new Error(`package.json has no "${script}" script`);
      const dir = mkdtempSync(join(tmpdir(), `${name}-server-`));
      const { file, served } = writeTestConfig(dir);
      const { env: storageEnv, release } = await storage();
      const env = { PORT: '0', HOST: '127.0.0.1', CONFIG_FILE: file, ...storageEnv };
      const server = await spawnServer(command, env, listeningLine).catch(async (error: unknown) => {
        rmSync(dir, { recursive: true, force: true });
        await release();
        throw error;
      });
      const listening = listeningLine(server.output())!;
      if (listening['runtime'] !== runtime) {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
        await release();
        throw new Error(`"${command}" runs ${String(listening['runtime'])}, not ${runtime}`);
      }
      const baseUrl = String(listening['url']);
      return {
        name,
        baseUrl,
        publicBaseUrl: `http://localhost:${new URL(baseUrl).port}`,
        served,
        newClient: clientCounter(),
        request: (init) => sendRequest(baseUrl, init),
        fetch: (input, init) => fetch(input, init),
        async stop() {
          const code = await server.stop();
          rmSync(dir, { recursive: true, force: true });
          await release();
          if (code !== 0) throw new Error(`${name} server exited with ${code} on SIGTERM:\n${server.output()}`);
        },
      };
    },
  };
}

/** The standalone server started by one package.json script, on memory storage. */
function standalone(name: string, script: string): Target {
  return scripted(name, script, name, async () => ({ env: { STORAGE: 'memory' }, release: async () => undefined }));
}

/**
 * `npm run start:workers` on PostgreSQL (DATABASE_URL, else the stand-in), in a schema of its own: the
 * Worker under workerd behind the local front, which passes the real client address as CF-Connecting-IP.
 */
const workersPostgres = scripted('workerd-postgres', 'start:workers', 'workerd', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  return { env: { DATABASE_URL: pg.url, DATABASE_SCHEMA: schema }, release: () => pg.dropSchema(schema) };
});

/** The Worker under workerd: the client address is CF-Connecting-IP, as Cloudflare's edge sets it. */
const workerd: Target = {
  name: 'workerd',
  scope: 'smoke',
  async start() {
    const worker = await startWorkerd();
    return {
      name: 'workerd',
      baseUrl: worker.baseUrl,
      publicBaseUrl: WORKER_VARS.PUBLIC_BASE_URL,
      served: { offer: example.offer, download: example.download, version: WORKER_VARS.PRODUCT_VERSION },
      newClient: clientCounter(),
      request: ({ from, headers, ...init }) => sendRequest(worker.baseUrl, { ...init, headers: { ...headers, 'cf-connecting-ip': from ?? '127.0.0.1' } }),
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'cf-connecting-ip': '127.0.0.1' } }),
      async stop() {
        await worker.stop();
      },
    };
  },
};

/** Every target, by name. */
export const targets = {
  node: standalone('node', 'start'),
  deno: standalone('deno', 'start:deno'),
  bun: standalone('bun', 'start:bun'),
  workerd,
  'workerd-postgres': workersPostgres,
} satisfies Record<string, Target>;
