/**
 * What the start says to the operator: a warning when license keys are signed with one of the test keys
 * the docs publish while payments are live (anyone can sign keys the app accepts), and when mail is on
 * without publicBaseUrl (the mails' links would name the instance's own address). Neither warning when
 * the configuration is right. The configuration is loaded as the server loads it; the start's other lines
 * are left to the tests of the program.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { announce } from '../../server/program.ts';
import { OTHER_PUBLIC_KEY, SCENARIO_PUBLIC_KEY } from '../../server/scenarios/test-keys.ts';
import { exampleConfigFiles } from '../_config-files.ts';
import { memoryLogger } from '../_setup.ts';

const test = suite('start warnings');
const { configFile, removeAll } = exampleConfigFiles('start-warnings');
test.after(removeAll);

const OWN_KEY = 'x7Qe3JkYc5wVnB8sTg2LpD4rHf6ZmA1uKy9oEi0WjXc';
const LIVE = { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_live_51Abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
const TEST = { ...LIVE, STRIPE_SECRET_KEY: 'sk_test_51Abc' };

/** The warnings the start gives for this environment and config file, with this license key. */
function warnings(env: Record<string, string>, publicKey = OWN_KEY, change: (config: Record<string, unknown>) => void = () => {}): string[] {
  const logger = memoryLogger();
  const config = loadConfig({ CONFIG_FILE: configFile(change), ...env }, process.cwd());
  const running = {
    url: 'http://127.0.0.1:8080',
    publicBaseUrl: config.publicBaseUrl ?? 'http://localhost:8080',
    metricsUrl: null,
    licensePublicKey: publicKey,
    licenseKeySource: 'LICENSE_SIGNING_KEY' as const,
  };
  announce('node', config, running, logger);
  return logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
}

const PUBLISHED =
  'license keys and update answers are signed with a PUBLISHED TEST KEY (docs/conformance.md) while payments are live: anyone can sign keys this app accepts; set LICENSE_SIGNING_KEY to a key of your own (converter-site-api license generate-key)';
const NO_BASE_URL =
  "mail is on but publicBaseUrl is not set: the links in mails (unsubscribe, the checkout thanks page) name this instance's own address; set publicBaseUrl in the config file to the address buyers reach";

test('a published test key with a live Stripe key: warned, for either published key', () => {
  for (const key of [SCENARIO_PUBLIC_KEY, OTHER_PUBLIC_KEY]) assert.ok(warnings(LIVE, key).includes(PUBLISHED), key);
});

test('a published test key with a test Stripe key or the simulator, or a key of its own when live: no such warning', () => {
  assert.not.ok(warnings(TEST, SCENARIO_PUBLIC_KEY).includes(PUBLISHED), 'test mode');
  assert.not.ok(warnings({}, SCENARIO_PUBLIC_KEY).includes(PUBLISHED), 'simulator');
  assert.not.ok(warnings(LIVE, OWN_KEY).includes(PUBLISHED), 'its own key');
});

test('mail on without publicBaseUrl: warned; with it, or with mail off: not', () => {
  const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
  assert.ok(warnings(smtp).includes(NO_BASE_URL));
  assert.not.ok(warnings(smtp, OWN_KEY, (config) => void (config['publicBaseUrl'] = 'https://api.example.com')).includes(NO_BASE_URL));
  assert.not.ok(warnings({}).includes(NO_BASE_URL));
});

/** The lines the start gives of the update files, with `roots` as each channel's newest root. */
function updateLines(roots: { channel: string; root: { version: number; expiresAt: number } | null }[], now: number, updates?: unknown) {
  const logger = memoryLogger();
  const config = loadConfig({ CONFIG_FILE: configFile((c) => void (updates && (c['updates'] = updates))) }, process.cwd());
  const running = {
    url: 'http://127.0.0.1:8080',
    publicBaseUrl: 'http://localhost:8080',
    metricsUrl: null,
    licensePublicKey: OWN_KEY,
    licenseKeySource: 'LICENSE_SIGNING_KEY' as const,
    updates: { onlineKey: 'ab'.repeat(32), onlineKeyid: 'cd'.repeat(32), source: 'storage' as const, roots },
  };
  announce('node', config, running, logger, now);
  return logger.lines.filter((line) => line.message.includes('update files')).map((line) =>
    `${line.level} ${line.message}${line.message.includes('purge') ? ` ${JSON.stringify(line.fields)}` : ''}`
  );
}

test('the update files: the online key always; a channel without a root said so; a root within 30 days of its expiry warned, with its date', () => {
  const now = Date.UTC(2026, 11, 7);
  const day = 86_400_000;
  const onlineKey = 'info update files are signed with this online key once a root names it (docs/operating.md, "Setting up the update files")';
  const noPurge =
    'info update files: no cache purge; caches keep the old timestamp until its max-age (docs/operating.md, "Purging the caches") {"purge":"none","timestampMaxAge":60}';
  assert.equal(updateLines([{ channel: 'stable', root: null }], now), [
    onlineKey,
    'info update files: channel stable has no root yet, so /updates/stable/ answers 404 (converter-site-api updates sign-root, then publish-root)',
    noPurge,
  ]);
  assert.equal(updateLines([{ channel: 'stable', root: { version: 3, expiresAt: now + 20 * day } }], now), [
    onlineKey,
    "warn update files: root 3 of channel stable expires in 20 days (2026-12-27T00:00:00.000Z): sign and publish root 4 before then, or every app refuses the channel's files",
    noPurge,
  ]);
  assert.equal(updateLines([{ channel: 'stable', root: { version: 3, expiresAt: now + 31 * day } }], now), [onlineKey, noPurge]);
});

test('the cache purge: which one is on, and where, in one start line', () => {
  const root = [{ channel: 'stable', root: { version: 3, expiresAt: Date.UTC(2027, 11, 7) } }];
  const lines = updateLines(root, Date.UTC(2026, 11, 7), { timestampMaxAgeSeconds: 30, purge: { cdn: 'varnish', urls: ['http://10.0.0.5:6081'] } });
  assert.equal(lines.slice(1), [
    'info update files: caches are purged through varnish once new files are stored {"purge":"varnish","urls":["http://10.0.0.5:6081"],"timestampMaxAge":30}',
  ]);
});

test.run();
