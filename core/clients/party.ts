/**
 * Who a bug report comes from, for the halt rule (docs/releases.md "The halt rule"): a **party** is a
 * network one subscriber cannot multiply cheaply, and its **client** the address it reports from.
 *
 * - IPv4: the client is the address, the network its /24.
 * - IPv6 that carries an IPv4 address counts as that IPv4, client and network alike: 6to4 (2002::/16, the
 *   IPv4 in bits 16-47), Teredo (2001::/32, the client's public IPv4 as the last 32 bits XOR ffffffff) and
 *   NAT64 (64:ff9b::/96, the last 32 bits), and the IPv4-translated and IPv4-compatible forms, as the
 *   webhook address policy reads them. Otherwise ten 6to4 forms of one IPv4 /24 were ten networks.
 * - IPv6 from a tunnel broker, where one free account gets several /48s (`TUNNEL_BROKERS`): the network is
 *   the broker's /32, so all of that broker's tunnels are one party.
 * - Any other IPv6: the client is its /64, the network its /48 (what a provider gives one customer).
 *
 * @module
 */
import { clientKey, embeddedIpv4OfGroups, formatV6, type Groups, isMappedV4, parseIp } from './client-ip.ts';

/** The IPv6 ranges where one account gets many /48s, each counted as one network (docs/releases.md). */
export const TUNNEL_BROKERS: readonly { prefix: readonly [number, number]; name: string }[] = [
  { prefix: [0x2001, 0x0470], name: 'Hurricane Electric tunnelbroker.net (2001:470::/32)' },
  { prefix: [0x2001, 0x05c0], name: 'gogo6 / Freenet6 (2001:5c0::/32)' },
];

/** A report's party: the client it counts once, and the network it counts from. */
export interface ReportParty {
  /** e.g. "203.0.113.7", or "2001:db8:1:2::/64". */
  client: string;
  /** e.g. "203.0.113.0/24", "2001:db8:1::/48", or "2001:470::/32" for a tunnel broker. */
  network: string;
}

const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 one carries for the halt rule, or null: Teredo's client (the last 32 bits XOR
 * ffffffff), else what a packet to it reaches (6to4, NAT64 and the rest: client-ip.ts `embeddedIpv4OfGroups`).
 */
export function carriedIpv4(g: Groups): string | null {
  if (g[0] === 0x2001 && g[1] === 0) return v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
  return embeddedIpv4OfGroups(g);
}

const ipv4Party = (address: string): ReportParty => ({ client: address, network: `${address.slice(0, address.lastIndexOf('.'))}.0/24` });

/**
 * The party of a client address.
 *
 * @param ip An address as `resolveClientIp` gives it; anything else is its own client and network.
 */
export function reportParty(ip: string): ReportParty {
  const g = parseIp(ip);
  if (!g) return { client: clientKey(ip), network: clientKey(ip) };
  if (isMappedV4(g)) return ipv4Party(v4(g[6]!, g[7]!));
  const carried = carriedIpv4(g);
  if (carried !== null) return ipv4Party(carried);
  const broker = TUNNEL_BROKERS.find(({ prefix }) => g[0] === prefix[0] && g[1] === prefix[1]);
  const network = broker ? `${formatV6([g[0]!, g[1]!, 0, 0, 0, 0, 0, 0])}/32` : `${formatV6([g[0]!, g[1]!, g[2]!, 0, 0, 0, 0, 0])}/48`;
  return { client: clientKey(ip), network };
}
