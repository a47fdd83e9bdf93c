/**
 * The standalone program on each runtime (npm start, start:deno, start:bun), as a real process: the
 * startup log with the 'listening' line last, a graceful SIGTERM, the Stripe gateway chosen by
 * PAYMENT_GATEWAY, and exit 78 for a refused setting before any port is bound. server/program.ts is
 * shared, so each runtime must behave the same.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines } from '../_log-lines.ts';
import { sendRequest } from '../_client.ts';
import { listeningLine, ROOT, runToExit, type Spawned, spawnServer } from '../_spawn.ts';
import { startStripeStandIn, type StripeStandIn } from '../stripe/_stand-in.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const RUNTIMES = { node: 'start', deno: 'start:deno', bun: 'start:bun' } as const;
const BASE_ENV = { PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', CONFIG_FILE: join(ROOT, 'example/config.json') };
const STRIPE_KEY = 'sk_test_51ProgramRuntimes';

function standIn(): Promise<StripeStandIn> {
  const prices = [
    { id: 'price_ExampleStandard', unit_amount: 4900 },
    { id: 'price_ExamplePlusAddon', unit_amount: 1900 },
    { id: 'price_ExamplePlusBundle', unit_amount: 6400 },
  ];
  return startStripeStandIn({ secretKey: STRIPE_KEY, now: () => Date.now(), prices });
}

for (const [runtime, script] of Object.entries(RUNTIMES)) {
  const command = scripts[script]!;
  const program = suite(`${runtime} program (npm run ${script})`);
  const start = (env: Record<string, string> = {}): Promise<Spawned> => spawnServer(command, { ...BASE_ENV, ...env }, listeningLine);
  const listening = (server: Spawned) => listeningLine(server.stdout())!;

  program(`${runtime}: the startup log says what is served, and 'listening' comes last with the bound port`, async () => {
    const server = await start();
    try {
      const info = logLines(server.stdout());
      assert.equal(
        info.map((l) => l.message),
        [
          'simulator: no site of yours in "checkoutReturn", so Pay returns the buyer to this server\'s /checkout/thanks page',
          'mail is off: SMTP_URL is not set; mails are kept in the outbox and shown on the order pages, not sent',
          'license keys are signed with Ed25519; give the desktop app this public key',
          'update files are signed with this online key once a root names it (docs/operating.md, "Setting up the update files")',
          'update files: channel stable has no root yet, so /updates/stable/ answers 404 (converter-site-api updates sign-root, then publish-root)',
          'update files: channel beta has no root yet, so /updates/beta/ answers 404 (converter-site-api updates sign-root, then publish-root)',
          'update files: no cache purge; caches keep the old timestamp until its max-age (docs/operating.md, "Purging the caches")',
          'listening',
        ],
      );
      assert.match(String(info[2]!['publicKey']), /^[A-Za-z0-9_-]{43}$/);
      assert.match(String(info[3]!['onlineKey']), /^[0-9a-f]{64}$/);
      const { url, runtime: named, publicBaseUrl } = info[info.length - 1]!;
      assert.is(named, runtime);
      const port = new URL(String(url)).port;
      assert.is(publicBaseUrl, `http://localhost:${port}`);
      const created = await sendRequest(String(url), { method: 'POST', path: '/api/v1/checkout/create' });
      const { sessionId, url: page } = created.json() as { sessionId: string; url: string };
      assert.is(page, `http://localhost:${port}/checkout/simulator/${sessionId}`);
    } finally {
      await server.stop();
    }
    // stderr is another pipe: read it whole once the process is gone.
    assert.equal(
      logLines(server.stderr()).map((l) => l.message),
      [
        'serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json',
        'payments go to the local PAYMENT SIMULATOR: no money is taken (see https://github.com/converter-site/converter-site-api/blob/main/docs/configuration.md#payment-simulator)',
        'STORAGE=memory: votes, feedback and licenses are lost on restart',
        'the license signing key was generated for this run only: set LICENSE_SIGNING_KEY (converter-site-api license generate-key; in a git checkout, npm run license -- generate-key) so keys keep verifying after a restart',
      ],
    );
  });

  program(`${runtime}: SIGTERM lets a request in flight finish, then exits 0`, async () => {
    const server = await start();
    const { port } = new URL(String(listening(server)['url']));
    const body = '{"description":"sent across a shutdown"}';
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (d: Buffer) => (response += d.toString('utf8')));
    // The process exits right after answering; a reset after the answer is expected.
    socket.on('error', () => {});
    socket.write(`POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body.slice(0, 10));
    const stopping = new Promise<void>((resolve) => {
      server.child.stdout!.on('data', (d: Buffer) => d.toString().includes('stopping') && resolve());
    });
    server.child.kill('SIGTERM');
    await stopping;
    socket.write(body.slice(10));
    const code = await server.exited;
    assert.match(response, /^HTTP\/1\.1 201 Created\r\n/, `${JSON.stringify(response)}\n${server.output()}`);
    assert.match(response, '{"success":true}');
    assert.is(code, 0, server.output());
  });

  program(`${runtime}: PAYMENT_GATEWAY=stripe sells through Stripe Checkout`, async () => {
    const stripe = await standIn();
    try {
      const server = await start({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_API_BASE: stripe.url });
      try {
        const payments = logLines(server.stdout()).find((l) => l.message === 'payments go to Stripe Checkout');
        assert.equal(payments && { mode: payments['mode'], apiBase: payments['apiBase'] }, { mode: 'test', apiBase: stripe.url });
        const created = await sendRequest(String(listening(server)['url']), { method: 'POST', path: '/api/v1/checkout/create' });
        const { sessionId, url } = created.json() as { sessionId: string; url: string };
        assert.is(url, `https://checkout.stripe.com/c/pay/${sessionId}`);
      } finally {
        await server.stop();
      }
    } finally {
      await stripe.close();
    }
  });

  program(`${runtime}: a secret key Stripe refuses stops the start with exit 78 naming it`, async () => {
    const stripe = await standIn();
    try {
      const env = { ...BASE_ENV, PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51Revoked', STRIPE_API_BASE: stripe.url };
      const { code, stderr } = await runToExit(command, env);
      assert.is(code, 78, stderr);
      assert.match(stderr, 'configuration error: STRIPE_SECRET_KEY');
    } finally {
      await stripe.close();
    }
  });

  program.run();
}
