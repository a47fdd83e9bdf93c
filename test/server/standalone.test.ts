import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { sendHttp } from '../_setup.ts';
import { listeningLine, runProgramToExit as runToExit, type ServerProcess, startServerProcess } from '../_spawn.ts';

const standalone = suite('standalone server');

standalone('with nothing configured it serves the example content from PGlite in ./data and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'empty-cwd-'));
  // Started inside try: a start that fails still leaves no directory behind.
  let started: ServerProcess | undefined;
  try {
    const server = (started = await startServerProcess({ STORAGE: undefined }, dir));
    const pricing = await sendHttp(server.port, { path: '/api/v1/pricing' });
    assert.is(pricing.status, 200);
    assert.is((pricing.json() as { product: string }).product, 'legacy-sheet-converter');
    const version = await sendHttp(server.port, { path: '/api/v1/version' });
    assert.equal(version.json(), {
      version: '2.4.1',
      downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
    });
    const roadmap = (await sendHttp(server.port, { path: '/api/v1/roadmap' })).json() as { features: unknown[] };
    assert.is(roadmap.features.length, 4);
    const checkout = (await sendHttp(server.port, { method: 'POST', path: '/api/v1/checkout/create' })).json() as { url: string };
    assert.match(checkout.url, new RegExp(`^http://localhost:${server.port}/checkout/simulator/cs_sim_`));
    const warnings = server.stderr().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { message: string }).message);
    assert.equal(warnings, [
      'serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json',
      'payments go to the local PAYMENT SIMULATOR: no money is taken (see https://github.com/converter-site/converter-site-api/blob/main/docs/configuration.md#payment-simulator)',
    ]);
    const info = server.stdout().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const keyAt = info.findIndex((l) => l['message'] === 'license keys are signed with Ed25519; give the desktop app this public key');
    assert.is(info[keyAt]?.['source'], 'storage');
    assert.match(String(info[keyAt]?.['publicKey']), /^[A-Za-z0-9_-]{43}$/);
    const listening = info.at(-1)!;
    assert.equal([listening['message'], listening['storage'], listening['dataDir']], ['listening', 'pglite', join(dir, 'data')]);
    assert.ok(keyAt >= 0 && keyAt < info.length - 1, 'the public key is logged before listening');
    assert.ok(existsSync(join(dir, 'data', 'PG_VERSION')), 'the database is in ./data');
  } finally {
    if (started) {
      started.child.kill('SIGTERM');
      await started.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

// SIGTERM with a request in flight: test/server/programs.test.ts, on Node, Deno and Bun alike.

standalone('request headers over 16 KiB are refused with a JSON 431', async () => {
  const server = await startServerProcess();
  try {
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(
        { host: '127.0.0.1', port: server.port },
        () => socket.write(`GET /api/v1/pricing HTTP/1.1\r\nHost: t\r\nX-Big: ${'x'.repeat(17 * 1024)}\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('error', () => {});
      socket.on('close', () => resolve(data));
    });
    assert.match(raw, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    assert.match(raw, '"code":"headers_too_large"');
    assert.is((await sendHttp(server.port, { path: '/api/v1/pricing' })).status, 200);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
});

function configWith(change: (config: Record<string, unknown>) => void): { file: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'config-'));
  const config = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'version.txt'), '3.0.0\n');
  change(config);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

for (
  const [name, change, expected] of [
    [
      'a price that is not a decimal string',
      (c: Record<string, unknown>) => ((c['offer'] as Record<string, unknown>)['licensePrice'] = '49'),
      'field "offer.licensePrice" must be a decimal string with two decimals, e.g. "49.00"',
    ],
    [
      'an unknown setting',
      (c: Record<string, unknown>) => (c['colour'] = 'blue'),
      'field "colour" is not a known setting',
    ],
    [
      'a required setting missing',
      (c: Record<string, unknown>) => delete (c['offer'] as Record<string, unknown>)['licensePrice'],
      'field "offer.licensePrice" is required',
    ],
    [
      'a roadmap category outside the list',
      (c: Record<string, unknown>) => ((c['roadmap'] as Record<string, unknown>[])[0]!['category'] = 'misc'),
      'field "roadmap.0.category" must be one of formats, conversion, app, licensing, other',
    ],
    [
      'a missing version file',
      (c: Record<string, unknown>) => (c['versionFile'] = 'nope.txt'),
      'nope.txt: ENOENT',
    ],
  ] as const
) {
  standalone(`a config file with ${name} stops the server with exit 78 naming the field`, async () => {
    const { file, cleanup } = configWith(change);
    try {
      const { code, stderr } = await runToExit({ CONFIG_FILE: file });
      assert.is(code, 78);
      assert.match(stderr, expected);
    } finally {
      cleanup();
    }
  });
}

standalone("without HOST the server listens on loopback only (127.0.0.1), as the README's localhost says", async () => {
  const server = await startServerProcess({ HOST: undefined });
  try {
    assert.is(new URL(server.url).hostname, '127.0.0.1');
    const listening = listeningLine(server.stdout())!;
    assert.is(listening.url, `http://127.0.0.1:${server.port}`);
    assert.is((await sendHttp(server.port, { path: '/healthz' })).status, 200);
  } finally {
    server.child.kill('SIGTERM');
    assert.is(await server.exited, 0);
  }
});

standalone('a config file without download.nonWindowsUrl (optional) starts and serves', async () => {
  const { file, cleanup } = configWith((c) => delete (c['download'] as Record<string, unknown>)['nonWindowsUrl']);
  try {
    const server = await startServerProcess({ CONFIG_FILE: file });
    try {
      const answer = await sendHttp(server.port, { path: '/api/v1/version' });
      assert.is(answer.status, 200);
      assert.equal(answer.json(), { version: '3.0.0', downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi' });
    } finally {
      server.child.kill('SIGTERM');
      assert.is(await server.exited, 0);
    }
  } finally {
    cleanup();
  }
});

for (
  const [env, expected] of [
    [{ PORT: 'eighty' }, 'configuration error: PORT must be a port number from 0 to 65535, not "eighty"'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8, proxy' }, 'configuration error: TRUSTED_PROXIES: "proxy" is not an IP address or CIDR range'],
    [{ STORAGE: 'redis' }, 'configuration error: STORAGE="redis" is not one of memory, pglite, postgres'],
    [{ CONFIG_FILE: '/nonexistent/config.json' }, 'cannot read /nonexistent/config.json: ENOENT'],
    [{ LICENSE_SIGNING_KEY: 'bm90IGEga2V5' }, 'LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key'],
  ] as const
) {
  standalone(`${Object.keys(env)[0]}=${Object.values(env)[0]} stops the server with exit 78`, async () => {
    const { code, stderr } = await runToExit(env);
    assert.is(code, 78);
    assert.match(stderr, expected);
  });
}

standalone.run();
