/**
 * The update window each SKU sells (issue 56, server/sku-config.ts): the config file's `skus.<sku>.updates`,
 * a whole number of days or "lifetime" (the default), one per product for the Plus bundle; anything else
 * stops the start with a message naming the field (a ConfigError: exit 78, as every refused setting).
 * createApp refuses the same mistakes from an embedder's options.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { LIFETIME_SALES } from '../../core/licensing/sale-windows.ts';
import { configError, exampleConfigFiles } from '../_config-files.ts';
import { createTestApp } from '../_setup.ts';

const { configFile, removeAll } = exampleConfigFiles('update-windows-config');
const withSkus = (skus: unknown) => configFile((c) => void (c['skus'] = skus));
const windowsOf = (skus: unknown) => loadConfig({ CONFIG_FILE: withSkus(skus) }, process.cwd()).updateWindows;

test('lifetime for every SKU when the file has no skus, or an SKU no updates', () => {
  assert.equal(loadConfig({}, process.cwd()).updateWindows, LIFETIME_SALES);
  assert.equal(windowsOf({ standard: {} }), LIFETIME_SALES);
});

test('days or "lifetime" per SKU; the bundle one window for both keys, or one per product', () => {
  assert.equal(windowsOf({ standard: { updates: 365 }, plus_addon: { updates: 'lifetime' }, plus_bundle: { updates: 730 } }), {
    standard: { standard: 365 },
    plus_addon: { plus: null },
    plus_bundle: { standard: 730, plus: 730 },
  });
  assert.equal(windowsOf({ plus_bundle: { updates: { standard: 365, plus: 'lifetime' } } }), {
    standard: { standard: null },
    plus_addon: { plus: null },
    plus_bundle: { standard: 365, plus: null },
  });
  assert.equal(windowsOf({ standard: { updates: 36500 } }).standard, { standard: 36500 });
});

test('a window that is not a positive whole number of days or "lifetime" stops the start, naming the field', () => {
  const refused = 'must be a positive whole number of days (at most 36500) or "lifetime"';
  for (
    const [skus, field] of [
      [{ standard: { updates: 0 } }, 'skus.standard.updates'],
      [{ standard: { updates: -30 } }, 'skus.standard.updates'],
      [{ plus_addon: { updates: 1.5 } }, 'skus.plus_addon.updates'],
      [{ plus_addon: { updates: '365' } }, 'skus.plus_addon.updates'],
      [{ standard: { updates: 'forever' } }, 'skus.standard.updates'],
      [{ standard: { updates: null } }, 'skus.standard.updates'],
      [{ standard: { updates: 36501 } }, 'skus.standard.updates'],
      [{ plus_bundle: { updates: { standard: 365, plus: 0 } } }, 'skus.plus_bundle.updates.plus'],
    ] as const
  ) {
    assert.match(configError({ CONFIG_FILE: withSkus(skus) }), `field "${field}" ${refused}`, JSON.stringify(skus));
  }
  assert.match(
    configError({ CONFIG_FILE: withSkus({ plus_bundle: { updates: { standard: 365 } } }) }),
    `field "skus.plus_bundle.updates" ${refused}, or one of each for "standard" and "plus"`,
  );
  assert.match(configError({ CONFIG_FILE: withSkus({ enterprise: { updates: 365 } }) }), 'field "skus.enterprise" is not a known setting');
  assert.match(configError({ CONFIG_FILE: withSkus({ standard: { update: 365 } }) }), 'field "skus.standard.update" is not a known setting');
});

test("createApp refuses an embedder's window that is not a whole number of days from 1 to 36500 or null, naming it", async () => {
  for (const days of [0, 2.5, 40_000, Number.NaN]) {
    const refused = await createTestApp({ updateWindows: { ...LIFETIME_SALES, plus_bundle: { standard: null, plus: days } } }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    assert.is(refused, `updateWindows: plus_bundle.plus must be a whole number of days from 1 to 36500, or null for lifetime, not ${JSON.stringify(days)}`);
  }
});

test.after(removeAll);
test.run();
