/**
 * The party a bug report counts from, for the halt rule (core/clients/party.ts): an IPv4 address and its
 * /24; an IPv6 /64 and its /48; a tunnel broker's /48s as its /32; and an IPv6 address that carries an IPv4
 * one (6to4, Teredo, NAT64) as that IPv4, client and network alike (round five: ten 6to4 forms of one /24
 * were ten networks).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reportParty } from '../../core/clients/party.ts';

test('IPv4 and IPv4-mapped: the address and its /24', () => {
  assert.equal(reportParty('203.0.113.7'), { client: '203.0.113.7', network: '203.0.113.0/24' });
  assert.equal(reportParty('::ffff:203.0.113.7'), { client: '203.0.113.7', network: '203.0.113.0/24' });
});

test('IPv6: its /64 and its /48', () => {
  assert.equal(reportParty('2001:db8:1:2:3::4'), { client: '2001:db8:1:2::/64', network: '2001:db8:1::/48' });
});

test('6to4, Teredo and NAT64 count as the IPv4 they carry', () => {
  // 6to4 of 203.0.113.7 (cb00:7107), any subnet and host.
  assert.equal(reportParty('2002:cb00:7107:1::1'), { client: '203.0.113.7', network: '203.0.113.0/24' });
  assert.equal(reportParty('2002:cb00:7163:ffff::9'), { client: '203.0.113.99', network: '203.0.113.0/24' });
  // Teredo: server 65.54.227.120, client 203.0.113.7 obfuscated (XOR ffffffff: 34ff:8ef8).
  assert.equal(reportParty('2001:0:4136:e378:8000:63bf:34ff:8ef8'), { client: '203.0.113.7', network: '203.0.113.0/24' });
  // NAT64's well-known prefix.
  assert.equal(reportParty('64:ff9b::cb00:7107'), { client: '203.0.113.7', network: '203.0.113.0/24' });
  assert.equal(reportParty('64:ff9b::203.0.113.200'), { client: '203.0.113.200', network: '203.0.113.0/24' });
});

test('ten 6to4 forms of one IPv4 /24 are one network; ten /48s of a tunnel broker are one network', () => {
  const sixToFour = Array.from({ length: 10 }, (_, i) => reportParty(`2002:cb00:71${(i + 1).toString(16).padStart(2, '0')}:${i}::1`).network);
  assert.equal([...new Set(sixToFour)], ['203.0.113.0/24']);
  const broker = Array.from({ length: 10 }, (_, i) => reportParty(`2001:470:${(0x1000 + i).toString(16)}::2`).network);
  assert.equal([...new Set(broker)], ['2001:470::/32']);
  assert.equal(reportParty('2001:5c0:1400:b::1').network, '2001:5c0::/32');
  // Next to the broker's range: a /48 as usual.
  assert.equal(reportParty('2001:471:1::2').network, '2001:471:1::/48');
});

test('anything that is no address is its own client and network', () => {
  assert.equal(reportParty('unknown'), { client: 'unknown', network: 'unknown' });
});

test.run();
