/**
 * The cache purge's settings (issue 55, server/purge-config.ts): the config file's `updates.purge` picks
 * Varnish, Cloudflare or Fastly, `UPDATES_PURGE_TOKEN` gives the two APIs their token, and every mistake
 * stops the start with a message naming the field or the variable, never the token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { describePurge } from '../../server/purge-config.ts';
import { configError, exampleConfigFiles } from '../_config-files.ts';

const { configFile, removeAll } = exampleConfigFiles('purge-config');
const withPurge = (purge: unknown) => configFile((c) => void (c['updates'] = { purge }));
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';

test('no purge by default: the start line says none', () => {
  const config = loadConfig({}, process.cwd());
  assert.is(config.updatesPurge, null);
  assert.equal(describePurge(config.updatesPurge), { purge: 'none' });
});

test('Varnish takes its caches from the file and no token', () => {
  const config = loadConfig({ CONFIG_FILE: withPurge({ cdn: 'varnish', urls: ['http://10.0.0.5:6081', 'http://10.0.0.6:6081'] }) }, process.cwd());
  assert.equal(config.updatesPurge, { cdn: 'varnish', urls: ['http://10.0.0.5:6081', 'http://10.0.0.6:6081'], token: null });
  assert.equal(describePurge(config.updatesPurge), { purge: 'varnish', urls: ['http://10.0.0.5:6081', 'http://10.0.0.6:6081'] });
});

test('Cloudflare and Fastly take their ids from the file and the token from UPDATES_PURGE_TOKEN, which the start line never shows', () => {
  const cloudflare = loadConfig({ CONFIG_FILE: withPurge({ cdn: 'cloudflare', zoneId: ZONE }), UPDATES_PURGE_TOKEN: 'cf-token' }, process.cwd());
  assert.equal(cloudflare.updatesPurge, { cdn: 'cloudflare', zoneId: ZONE, token: 'cf-token' });
  assert.equal(describePurge(cloudflare.updatesPurge), { purge: 'cloudflare', zoneId: ZONE, apiBase: 'https://api.cloudflare.com/client/v4' });
  const fastly = loadConfig(
    { CONFIG_FILE: withPurge({ cdn: 'fastly', serviceId: 'SU1Z0isxPaozGVKXdv0eY', apiBase: 'http://127.0.0.1:9999' }), UPDATES_PURGE_TOKEN: 'fastly-token' },
    process.cwd(),
  );
  assert.equal(fastly.updatesPurge, { cdn: 'fastly', serviceId: 'SU1Z0isxPaozGVKXdv0eY', apiBase: 'http://127.0.0.1:9999', token: 'fastly-token' });
  assert.equal(describePurge(fastly.updatesPurge), { purge: 'fastly', serviceId: 'SU1Z0isxPaozGVKXdv0eY', apiBase: 'http://127.0.0.1:9999' });
});

test('a mistake stops the start, naming the field or the variable', () => {
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'akamai' }) }),
    'field "updates.purge.cdn" must be an object whose "cdn" is varnish, cloudflare or fastly',
  );
  assert.match(configError({ CONFIG_FILE: withPurge({ cdn: 'varnish', urls: [] }) }), 'field "updates.purge.urls" must name at least one Varnish');
  assert.match(configError({ CONFIG_FILE: withPurge({ cdn: 'varnish', urls: ['ftp://cache'] }) }), 'field "updates.purge.urls.0" must be an http(s) URL');
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'cloudflare', zoneId: 'example.com' }), UPDATES_PURGE_TOKEN: 'x' }),
    `field "updates.purge.zoneId" must be the zone's id: 32 hexadecimal digits`,
  );
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'fastly', serviceId: 'SU1Z', zoneId: ZONE }) }),
    'field "updates.purge.zoneId" is not a known setting',
  );
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'cloudflare', zoneId: ZONE }) }),
    '"updates.purge.cdn" is cloudflare, which needs UPDATES_PURGE_TOKEN (a Cloudflare API token with Zone > Cache Purge)',
  );
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'fastly', serviceId: 'SU1Z' }) }),
    'which needs UPDATES_PURGE_TOKEN (a Fastly API token with purge_select)',
  );
  const stray = configError({ UPDATES_PURGE_TOKEN: 'secret-token' });
  assert.match(stray, 'UPDATES_PURGE_TOKEN is set but');
  assert.not.match(stray, 'secret-token');
  assert.match(
    configError({ CONFIG_FILE: withPurge({ cdn: 'varnish', urls: ['http://10.0.0.5:6081'] }), UPDATES_PURGE_TOKEN: 'secret-token' }),
    'which takes none',
  );
});

test.after(removeAll);
test.run();
