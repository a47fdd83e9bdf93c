/**
 * `userAgentProduct` and `haltRule` come from the config file (defaults when absent); a value out of
 * range stops the start with a message naming it.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appOptionsOf, fileSettings, parseConfigFile } from '../../server/config-schema.ts';
import { EXAMPLE_CONFIG } from '../../server/config.ts';

const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
const optionsOf = (fields: Record<string, unknown>) => appOptionsOf(fileSettings(parseConfigFile({ ...example, ...fields }, 'config.json')));

const DEFAULTS = { factor: 3, minClients: 10, minNetworks: 10, confidence: 0.999 };

test('the defaults: LegacySheetConverter, a factor of 3, 10 reporting clients from 10 networks, 99.9 % confidence', () => {
  const options = optionsOf({});
  assert.equal([options.userAgentProduct, options.haltRule], ['LegacySheetConverter', DEFAULTS]);
});

test('set in the file, each is given to the app; out of range is refused by name', () => {
  const set = { factor: 2.5, minClients: 30, minNetworks: 20, confidence: 0.99 };
  const options = optionsOf({ userAgentProduct: 'SheetPro', haltRule: set });
  assert.equal([options.userAgentProduct, options.haltRule], ['SheetPro', set]);
  assert.equal(optionsOf({ haltRule: { minClients: 5 } }).haltRule, { ...DEFAULTS, minClients: 5 });
  assert.throws(() => optionsOf({ haltRule: { confidence: 1 } }), /field "haltRule.confidence"/);
  // Counted reports became counted clients (issue 42): the old name is refused, not silently ignored.
  assert.throws(() => optionsOf({ haltRule: { minReports: 5 } }), /field "haltRule.minReports" is not a known setting/);
  assert.throws(() => optionsOf({ userAgentProduct: 'Sheet Pro' }), /field "userAgentProduct" must be an HTTP token/);
  assert.throws(() => optionsOf({ haltRule: { factor: 0.5 } }), /field "haltRule.factor"/);
  assert.throws(() => optionsOf({ haltRule: { every: 1 } }), /field "haltRule.every" is not a known setting/);
});

test.run();
