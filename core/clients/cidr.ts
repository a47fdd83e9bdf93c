/**
 * Address ranges: the trusted proxies (TRUSTED_PROXIES), parsed once and asked for every request.
 *
 * @module
 */
import { type CidrSet, type Groups, ipv4Value, parseIp, parseIpv4 } from './client-ip.ts';

/**
 * Parses a comma-separated list of CIDR ranges or single addresses, e.g. "127.0.0.1/32, 10.0.0.0/8, ::1".
 *
 * @throws Error naming the entry that is not a range.
 */
export function parseCidrList(list: string): CidrSet {
  const v6: { base: Groups; bits: number }[] = [];
  const v4: { base: number; size: number }[] = [];
  const source = list.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const entry of source) {
    const [addr = '', prefix] = entry.split('/');
    const base = parseIp(addr);
    const isV4 = parseIpv4(addr) !== null;
    const max = isV4 ? 32 : 128;
    const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!base || !(bits >= 0 && bits <= max)) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    const mappedBits = isV4 ? bits + 96 : bits;
    v6.push({ base, bits: mappedBits });
    // The part of the range that holds IPv4 addresses, for the fast path (written as IPv4 or as ::ffff:a.b.c.d/n).
    if (inRange(MAPPED_PREFIX, base, Math.min(mappedBits, 96))) {
      const size = 2 ** (128 - Math.max(mappedBits, 96));
      const low = base[6]! * 65536 + base[7]!;
      v4.push({ base: Math.floor(low / size) * size, size });
    }
  }
  return {
    source,
    has(ip) {
      const value = ipv4Value(ip);
      if (value >= 0) {
        for (const range of v4) if (value >= range.base && value < range.base + range.size) return true;
        return false;
      }
      const g = parseIp(ip);
      return g !== null && v6.some((r) => inRange(g, r.base, r.bits));
    },
  };
}

const MAPPED_PREFIX: Groups = [0, 0, 0, 0, 0, 0xffff, 0, 0];

function inRange(g: Groups, base: Groups, bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((g[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}
