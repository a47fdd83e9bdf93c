import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../server/config.ts';
import { connectionsCheckingInterval, defaultMaxConnections, fileDescriptorLimit, httpLimits } from '../../server/http-limits.ts';

test('the defaults: the documented timeouts, 256 per client, the open-file limit less a tenth in total', () => {
  assert.equal(httpLimits({}, 20_000), {
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 16_384,
    maxConnectionsPerClient: 256,
    maxConnections: 18_000,
  });
  assert.is(defaultMaxConnections(1024), 896, 'at least 128 descriptors stay free');
  assert.is(defaultMaxConnections(null), 4096);
});

test('the open-file limit is read from the process (this machine runs Linux)', () => {
  const limit = fileDescriptorLimit();
  assert.ok(limit !== null && limit > 0, String(limit));
});

test('the environment sets every limit', () => {
  const env = {
    HTTP_HEADERS_TIMEOUT_MS: '300',
    HTTP_REQUEST_TIMEOUT_MS: '600',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
    MAX_CONNECTIONS_PER_CLIENT: '3',
    MAX_CONNECTIONS: '40',
  };
  assert.equal(httpLimits(env, 1024), {
    headersTimeout: 300,
    requestTimeout: 600,
    keepAliveTimeout: 200,
    maxHeaderSize: 16_384,
    maxConnectionsPerClient: 3,
    maxConnections: 40,
  });
});

for (
  const [env, message] of [
    [{ MAX_CONNECTIONS: 'lots' }, 'MAX_CONNECTIONS must be a whole number of at least 1, not "lots"'],
    [{ MAX_CONNECTIONS_PER_CLIENT: '0' }, 'MAX_CONNECTIONS_PER_CLIENT must be a whole number of at least 1, not "0"'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '-5' }, 'HTTP_HEADERS_TIMEOUT_MS must be a whole number of at least 1, not "-5"'],
    [{ HTTP_HEADERS_TIMEOUT_MS: '40000' }, 'HTTP_HEADERS_TIMEOUT_MS (40000) must not be longer than HTTP_REQUEST_TIMEOUT_MS (30000)'],
  ] as const
) {
  test(`${Object.keys(env)[0]}=${Object.values(env)[0]} is refused as a configuration error`, () => {
    assert.throws(() => httpLimits(env, 1024), (error: unknown) => error instanceof ConfigError && error.message === message);
  });
}

test('node checks for expired requests every tenth of the shorter timeout, between 50 ms and 1 s', () => {
  assert.is(connectionsCheckingInterval({ headersTimeout: 10_000, requestTimeout: 30_000 }), 1000);
  assert.is(connectionsCheckingInterval({ headersTimeout: 3_000, requestTimeout: 30_000 }), 300);
  assert.is(connectionsCheckingInterval({ headersTimeout: 100, requestTimeout: 200 }), 50);
});

test.run();
