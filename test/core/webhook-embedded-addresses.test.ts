/**
 * IPv6 addresses that embed an IPv4 one (6to4, NAT64, IPv4-translated, IPv4-compatible, IPv4-mapped) are
 * judged as the IPv4 address they reach: `[2002:7f00:1::]` (6to4 of 127.0.0.1) was accepted as a webhook
 * target. Checked with the classifier and through POST /webhooks in process, which refuses before any
 * connection (nothing here is ever sent to).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { addressRefusal, embeddedIpv4, endpointRefusal, STRICT_WEBHOOK_ADDRESSES } from '../../core/webhooks/address.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const REFUSED = 'is a loopback, private, link-local or reserved address';

test('the IPv4 address each embedding stands for; null for other IPv6 addresses', () => {
  const cases: [string, string | null][] = [
    ['2002:7f00:1::', '127.0.0.1'],
    ['2002:a00:1:5::9', '10.0.0.1'],
    ['2002:c0a8:101::', '192.168.1.1'],
    ['64:ff9b::7f00:1', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['::ffff:0:a00:1', '10.0.0.1'],
    ['::7f00:1', '127.0.0.1'],
    ['::1', null],
    ['::', null],
    ['2001:4860::8888', null],
    ['64:ff9b:1::a00:1', null],
  ];
  for (const [ip, v4] of cases) assert.is(embeddedIpv4(ip), v4, ip);
});

test('a refused IPv4 address is refused in every embedding, naming both; a public one is judged as public', () => {
  const refused = (ip: string) => addressRefusal(STRICT_WEBHOOK_ADDRESSES, ip, 443);
  assert.is(refused('2002:7f00:1::'), `2002:7f00:1:: (127.0.0.1) ${REFUSED}`);
  assert.is(refused('2002:a9fe:a9fe::1'), `2002:a9fe:a9fe::1 (169.254.169.254) ${REFUSED}`);
  assert.is(refused('64:ff9b::10.1.2.3'), `64:ff9b::a01:203 (10.1.2.3) ${REFUSED}`);
  assert.is(refused('::ffff:0:7f00:1'), `::ffff:0:7f00:1 (127.0.0.1) ${REFUSED}`);
  assert.is(refused('::127.0.0.1'), `::7f00:1 (127.0.0.1) ${REFUSED}`);
  assert.is(refused('::ffff:7f00:1'), `127.0.0.1 ${REFUSED}`, 'IPv4-mapped, unwrapped as before');
  assert.is(refused('64:ff9b:1::a00:1'), `64:ff9b:1::a00:1 ${REFUSED}`, 'local-use NAT64: refused whole');
  assert.is(refused('2001:0:4136:e378:8000:63bf:3fff:fdd2'), `2001:0:4136:e378:8000:63bf:3fff:fdd2 ${REFUSED}`, 'Teredo');
  for (const ip of ['fec0::1', 'fec0:0:0:ffff::1', 'feff:ffff::1']) assert.is(refused(ip), `${ip} ${REFUSED}`, 'site-local (deprecated, RFC 3879)');
  assert.is(refused('2002:808:808::1'), null, '6to4 of 8.8.8.8');
  assert.is(refused('64:ff9b::808:808'), null, 'NAT64 of 8.8.8.8 (DNS64 answers these on IPv6-only networks)');
  assert.is(addressRefusal({ allowed: parseCidrList('10.0.0.0/8') }, '2002:a00:1::', 443), null, 'an allowed IPv4 range covers its embeddings');
  assert.is(
    addressRefusal({ allowed: null, isOwnListener: (ip, port) => ip === '127.0.0.1' && port === 8081 }, '2002:7f00:1::', 8081),
    `2002:7f00:1:: (127.0.0.1) port 8081 is a listener of this server`,
  );
});

test('an endpoint URL with an embedding host is refused at registration, before any connection', async () => {
  assert.is(await endpointRefusal(STRICT_WEBHOOK_ADDRESSES, 'http://[2002:7f00:1::]/hooks'), `2002:7f00:1:: (127.0.0.1) ${REFUSED}`);
  const { app } = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  for (
    const [url, named] of [
      ['http://[2002:7f00:1::]:8080/hooks', '2002:7f00:1:: (127.0.0.1)'],
      // Only loopback forms are sent to the API (no address off this machine, not even a refused one); the
      // private and link-local forms are the classifier's cases above.
      ['https://[64:ff9b::7f00:1]/hooks', '64:ff9b::7f00:1 (127.0.0.1)'],
      ['https://[::ffff:0:7f00:1]/latest/meta-data', '::ffff:0:7f00:1 (127.0.0.1)'],
    ]
  ) {
    const answer = await app.operator!.handle(
      coreRequest({ method: 'POST', path: '/webhooks', clientIp: '127.0.0.1', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, json: { url } }),
    );
    assert.is(answer.status, 400, url);
    assert.equal(bodyJson(answer), {
      code: 'webhook_address_refused',
      message: `Events are not sent to ${JSON.stringify(url)}: ${named} ${REFUSED}.`,
      resolution: "Give the receiver's public address; for a receiver on your own network, allow its range in WEBHOOK_ALLOW_NETWORKS.",
    }, url);
  }
  const listed = await app.operator!.handle(coreRequest({ path: '/webhooks', clientIp: '127.0.0.1', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } }));
  assert.equal(bodyJson(listed), { endpoints: [] });
});

test.run();
