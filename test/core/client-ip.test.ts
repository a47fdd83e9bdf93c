import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalIp, clientKey, forwardedAddress, ipv4Value, parseIp, resolveClientIp } from '../../core/clients/client-ip.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';

const ip = suite('client ip');

ip('addresses get one canonical spelling; IPv4-mapped IPv6 is unwrapped', () => {
  assert.equal(
    ['192.0.2.1', '::ffff:192.0.2.1', '::FFFF:C000:0201', '2001:DB8:0:0:0:0:0:1', '2001:db8::1', '[::1]', 'fe80::1%eth0', '::'].map(canonicalIp),
    ['192.0.2.1', '192.0.2.1', '192.0.2.1', '2001:db8::1', '2001:db8::1', '::1', 'fe80::1', '::'],
  );
});

ip('things that are not addresses are refused', () => {
  for (const text of ['', '1.2.3', '1.2.3.256', '01.2.3.4', '1.2.3.4.5', '2001:db8::1::2', ':::', '1:2:3:4:5:6:7:8:9', 'g::1', 'localhost']) {
    assert.is(canonicalIp(text), null, text);
  }
});

ip('the IPv4 fast path takes exactly the canonical dotted addresses, with their 32-bit value', () => {
  const texts = [
    '0.0.0.0',
    '255.255.255.255',
    '10.0.0.1',
    '1.2.3.4',
    '256.0.0.0',
    '1.2.3.04',
    '00.1.2.3',
    '1.2.3.',
    '.1.2.3',
    '1..2.3',
    '1.2.3.4.',
    '1.2.3.4.5',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2.3.1000',
    '1.2.3.-1',
    '1.2.3.a',
    '',
    '::1',
    '1234567.1.1.1',
  ];
  for (const text of texts) {
    const groups = /^\d/.test(text) && !text.includes(':') ? parseIp(text) : null;
    const expected = groups ? groups[6]! * 65536 + groups[7]! : -1;
    assert.is(ipv4Value(text), expected, text);
  }
  assert.is(ipv4Value('203.0.113.7'), ((203 * 256 + 0) * 256 + 113) * 256 + 7);
});

ip('the client key: IPv4 as is, IPv6 by /64', () => {
  assert.is(clientKey('203.0.113.7'), '203.0.113.7');
  assert.is(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.is(clientKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.is(clientKey('2001:db8::1'), '2001:db8::/64');
});

ip('CIDR lists match IPv4, IPv6 and mapped addresses, and name a bad entry', () => {
  const set = parseCidrList(' 127.0.0.1/32, 10.0.0.0/8,::1, 2001:db8::/32 ');
  assert.equal(set.source, ['127.0.0.1/32', '10.0.0.0/8', '::1', '2001:db8::/32']);
  assert.equal(
    ['127.0.0.1', '::ffff:127.0.0.1', '127.0.0.2', '10.255.0.1', '11.0.0.1', '::1', '::2', '2001:db8:ffff::1', '2001:db9::1'].map((a) => set.has(a)),
    [true, true, false, true, false, true, false, true, false],
  );
  const mapped = parseCidrList('::ffff:192.0.2.0/120, ::/0');
  assert.equal(['192.0.2.77', '198.51.100.1', '2001:db8::1'].map((a) => mapped.has(a)), [true, true, true]);
  const mappedOnly = parseCidrList('::ffff:192.0.2.0/120');
  assert.equal(['192.0.2.77', '::ffff:192.0.2.78', '192.0.3.1'].map((a) => mappedOnly.has(a)), [true, true, false]);
  assert.throws(() => parseCidrList('10.0.0.0/33'), /"10.0.0.0\/33" is not an IP address or CIDR range/);
  assert.throws(() => parseCidrList('10.0.0.0/8, proxy.internal'), /"proxy.internal" is not an IP address/);
});

ip('X-Forwarded-For is read only from a trusted peer, right to left, skipping trusted hops', () => {
  const trusted = parseCidrList('10.0.0.0/8');
  assert.is(resolveClientIp('203.0.113.1', '198.51.100.1', trusted), '203.0.113.1');
  assert.is(resolveClientIp('10.0.0.1', '198.51.100.1', null), '10.0.0.1');
  assert.is(resolveClientIp('10.0.0.1', 'spoofed, 198.51.100.1, 10.0.0.2', trusted), '198.51.100.1');
  assert.is(resolveClientIp('::ffff:10.0.0.1', '198.51.100.1', trusted), '198.51.100.1');
  assert.is(resolveClientIp('10.0.0.1', '10.0.0.3, 10.0.0.2', trusted), '10.0.0.3');
  assert.is(resolveClientIp('10.0.0.1', 'garbage, 10.0.0.2', trusted), '10.0.0.2');
  assert.is(resolveClientIp('10.0.0.1', undefined, trusted), '10.0.0.1');
  assert.is(resolveClientIp('10.0.0.1', '198.51.100.1,', trusted), '10.0.0.1');
  assert.is(resolveClientIp('10.0.0.1', ',198.51.100.1', trusted), '198.51.100.1');
  assert.is(resolveClientIp('10.0.0.1', ' 198.51.100.1 ,10.0.0.2 ', trusted), '198.51.100.1');
  assert.is(resolveClientIp('10.0.0.1', '10.0.0.2,10.0.0.3', trusted), '10.0.0.2');
});

ip('X-Forwarded-For entries with a port read as their address; a bare IPv6 address keeps its last group', () => {
  const entries = [
    '203.0.113.7:5555',
    '203.0.113.7:0',
    '[2001:db8::7]:443',
    '[2001:DB8::7]',
    '[::ffff:203.0.113.7]:80',
    '2001:db8::7:5555',
    '203.0.113.7',
    '[fe80::1%eth0]:8080',
  ];
  assert.equal(entries.map(forwardedAddress), [
    '203.0.113.7',
    '203.0.113.7',
    '2001:db8::7',
    '2001:db8::7',
    '203.0.113.7',
    '2001:db8::7:5555',
    '203.0.113.7',
    'fe80::1',
  ]);
  for (
    const bad of [
      '203.0.113.7:',
      '203.0.113.7:65536',
      '203.0.113.7:123456',
      '203.0.113.7:x',
      'host:80',
      '[203.0.113.7]:80',
      '[2001:db8::7',
      '[2001:db8::7]:',
      '[2001:db8::7]80',
      '[2001:db8::7]:99999',
      '01.2.3.4:80',
      ':80',
    ]
  ) {
    assert.is(forwardedAddress(bad), null, bad);
  }
  const trusted = parseCidrList('10.0.0.0/8');
  assert.is(resolveClientIp('10.0.0.1', '198.51.100.1:5555, 10.0.0.2:443', trusted), '198.51.100.1');
  assert.is(resolveClientIp('10.0.0.1', '[2001:db8::1]:5555', trusted), '2001:db8::1');
});

ip.run();
