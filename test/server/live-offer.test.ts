/**
 * The standalone server's offer with PAYMENT_GATEWAY=stripe, against the stand-in: the config file's
 * amounts by default, Stripe's from the first answer with `stripe.livePrices`, and the config file's
 * again when Stripe cannot be reached at startup. Every answer is validated against the served
 * /openapi.json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLE_CONFIG, loadConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { createResponseValidator } from '../_openapi.ts';
import { exampleContent, manualClock, memoryLogger, sendHttp } from '../_setup.ts';
import { startStripeStandIn, type StripeStandIn } from '../stripe/_stand-in.ts';

const SECRET_KEY = 'sk_test_51LiveOffer';
const CONFIGURED = exampleContent().offer;
const LIVE = { ...CONFIGURED, licensePrice: '59.00', licensePriceDisplay: '$59', plusAddonPrice: '24.50', plusAddonPriceDisplay: '$24.50' };

/** Directories this file made, removed when it ends. */
const made: string[] = [];

/** The example config, with `stripe.livePrices` set as given. */
function configFile(livePrices: boolean | undefined): string {
  const config = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as { stripe: Record<string, unknown> };
  if (livePrices !== undefined) config.stripe['livePrices'] = livePrices;
  const dir = mkdtempSync(join(tmpdir(), 'live-offer-'));
  made.push(dir);
  writeFileSync(join(dir, 'version.txt'), '2.4.1\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  return join(dir, 'config.json');
}

/** A stand-in whose standard and Plus add-on prices differ from the config file's. */
function standIn(clock: { now(): number }): Promise<StripeStandIn> {
  return startStripeStandIn({
    secretKey: SECRET_KEY,
    now: clock.now,
    prices: [
      { id: 'price_ExampleStandard', unit_amount: 5900 },
      { id: 'price_ExamplePlusAddon', unit_amount: 2450 },
      { id: 'price_ExamplePlusBundle', unit_amount: 6400 },
    ],
  });
}

/** Starts the server on the given config file and Stripe address. */
function start(file: string, apiBase: string, logger: ReturnType<typeof memoryLogger>, clock: ReturnType<typeof manualClock>): Promise<RunningServer> {
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    STORAGE: 'memory',
    CONFIG_FILE: file,
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: 'whsec_liveOffer',
    STRIPE_API_BASE: apiBase,
  };
  return startServer(loadConfig(env, process.cwd()), logger, clock);
}

/** GET pricing on both paths, each answer validated against the server's /openapi.json. */
async function pricing(running: RunningServer): Promise<unknown[]> {
  const port = Number(new URL(running.url).port);
  const validator = createResponseValidator((await sendHttp(port, { path: '/openapi.json', from: '127.0.0.254' })).json());
  const bodies: unknown[] = [];
  for (const path of ['/api/v1/pricing', '/api/pricing']) {
    const answer = await sendHttp(port, { path });
    validator.validate('GET', path, answer);
    assert.is(answer.status, 200);
    bodies.push(answer.json());
  }
  return bodies;
}

for (const livePrices of [undefined, false]) {
  test(`with stripe.livePrices ${livePrices === undefined ? 'left out' : 'false'}, the config file's amounts are served`, async () => {
    const clock = manualClock();
    const stripe = await standIn(clock);
    const logger = memoryLogger();
    const running = await start(configFile(livePrices), stripe.url, logger, clock);
    try {
      assert.equal(await pricing(running), [CONFIGURED, CONFIGURED]);
      const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
      assert.equal(warnings, [
        'stripe: stripe.prices.standard: price price_ExampleStandard charges 59.00 but the offer shows 49.00',
        'stripe: stripe.prices.plus_addon: price price_ExamplePlusAddon charges 24.50 but the offer shows 19.00',
      ]);
    } finally {
      await running.stop();
      await stripe.close();
    }
  });
}

test('with stripe.livePrices, the first answer already carries the amounts of the Stripe Prices', async () => {
  const clock = manualClock();
  const logger = memoryLogger();
  const stripe = await standIn(clock);
  const running = await start(configFile(true), stripe.url, logger, clock);
  try {
    assert.equal(await pricing(running), [LIVE, LIVE]);
    // The Prices differ from the file on purpose: no startup warning about it.
    assert.equal(logger.lines.filter((l) => l.level !== 'info'), []);
    assert.ok(logger.lines.some((l) => l.message === 'stripe: the live offer changed'));
  } finally {
    await running.stop();
    await stripe.close();
  }
});

test("with stripe.livePrices and Stripe unreachable at startup, the server starts on the config file's amounts", async () => {
  const clock = manualClock();
  const logger = memoryLogger();
  const stripe = await standIn(clock);
  await stripe.close();
  const running = await start(configFile(true), stripe.url, logger, clock);
  try {
    assert.equal(await pricing(running), [CONFIGURED, CONFIGURED]);
    const outage = logger.lines.filter((l) => l.message.startsWith('stripe: cannot read the live prices'));
    assert.is(outage.length, 1);
    assert.is(outage[0]?.fields?.['failure'], 'unreachable');
  } finally {
    await running.stop();
  }
});

test.after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

test.run();
