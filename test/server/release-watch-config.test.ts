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

test('the defaults: LegacySheetConverter, a factor of 3 and 10 reports', () => {
  const options = optionsOf({});
  assert.equal([options.userAgentProduct, options.haltRule], ['LegacySheetConverter', { factor: 3, minReports: 10 }]);
});

test('set in the file, each is given to the app; out of range is refused by name', () => {
  const options = optionsOf({ userAgentProduct: 'SheetPro', haltRule: { factor: 2.5, minReports: 30 } });
  assert.equal([options.userAgentProduct, options.haltRule], ['SheetPro', { factor: 2.5, minReports: 30 }]);
  assert.equal(optionsOf({ haltRule: { minReports: 5 } }).haltRule, { factor: 3, minReports: 5 });
  assert.throws(() => optionsOf({ userAgentProduct: 'Sheet Pro' }), /field "userAgentProduct" must be an HTTP token/);
  assert.throws(() => optionsOf({ haltRule: { factor: 0.5 } }), /field "haltRule.factor"/);
  assert.throws(() => optionsOf({ haltRule: { every: 1 } }), /field "haltRule.every" is not a known setting/);
});

test.run();
