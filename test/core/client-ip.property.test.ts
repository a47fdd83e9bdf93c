/**
 * Property tests of core/clients/client-ip.ts with ipaddr.js as the oracle: canonical spelling, refusals, the
 * client key, CIDR matching and the X-Forwarded-For walk, each over a few hundred generated cases.
 */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { suite } from 'uvu';
import { canonicalIp, clientKey, forwardedAddress, ipv4Value, resolveClientIp } from '../../core/clients/client-ip.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';

const property = suite('client ip properties (oracle: ipaddr.js)');
const RUNS = { numRuns: 300 };

/**
 * The oracle's canonical text. Three rules of ours are applied before ipaddr.js sees the text: a zone id
 * is RFC 6874's (unreserved characters; ipaddr.js takes only letters and digits) and is dropped; a dotted
 * tail must be four decimal parts without leading zeros (RFC 3986's dec-octet; ipaddr.js also takes
 * leading zeros there), and it is handed over as two hex groups, since ipaddr.js reads the deprecated
 * "::a.b.c.d" as "::ffff:a.b.c.d".
 */
function oracleCanonical(text: string): string | null {
  const inner = /^\[(.*)\]$/s.exec(text)?.[1];
  if (inner === undefined && ipaddr.IPv4.isValidFourPartDecimal(text)) return text;
  const v6 = inner ?? text;
  const percent = v6.indexOf('%');
  const address = percent < 0 ? v6 : v6.slice(0, percent);
  if (percent >= 0 && !/^[A-Za-z0-9._~-]+$/.test(v6.slice(percent + 1))) return null;
  let hex = address;
  const dotted = /^(.*:)([^:]*\.[^:]*)$/s.exec(address);
  if (dotted) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(dotted[2]!)) return null;
    const [a, b, c, d] = ipaddr.IPv4.parse(dotted[2]!).toByteArray() as [number, number, number, number];
    hex = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!ipaddr.IPv6.isValid(hex)) return null;
  const parsed = ipaddr.IPv6.parse(hex);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : parsed.toRFC5952String();
}

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));
/** Eight groups, often zero (so that "::" has runs to compress), sometimes IPv4-mapped. */
const groups = fc.oneof(
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
  fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff })).map(([a, b]) => [0, 0, 0, 0, 0, 0xffff, a, b]),
);

/** One of the many valid spellings of eight groups: padded or not, any case, any zero run as "::", a dotted tail, brackets, a zone. */
const ipv6 = fc
  .record({
    groups,
    pad: fc.boolean(),
    upper: fc.boolean(),
    compress: fc.nat(8),
    dotted: fc.boolean(),
    bracket: fc.boolean(),
    zone: fc.option(fc.stringMatching(/^[0-9a-z._~-]{1,6}$/), { nil: undefined }),
  })
  .map(({ groups: g, pad, upper, compress, dotted, bracket, zone }) => {
    const hex = g.map((x) => (pad ? x.toString(16).padStart(4, '0') : x.toString(16)));
    const tail = dotted ? [`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`] : hex.slice(6);
    const parts = [...hex.slice(0, 6), ...tail];
    // Compress the run of zero groups that starts at or after `compress`, when there is one.
    const start = g.findIndex((x, i) => i >= compress && x === 0 && i < 6 + tail.length - (dotted ? 1 : 0));
    let text = parts.join(':');
    if (start >= 0) {
      let end = start;
      while (end < 8 && g[end] === 0 && (!dotted || end < 6)) end++;
      text = `${parts.slice(0, start).join(':')}::${parts.slice(end).join(':')}`;
    }
    if (upper) text = text.toUpperCase();
    if (zone !== undefined) text += `%${zone}`;
    return bracket ? `[${text}]` : text;
  });

const address = fc.oneof(ipv4, ipv6);
/** An address with one random edit: a character inserted, removed or replaced. */
const mutated = fc
  .tuple(address, fc.nat(), fc.constantFrom('0', '9', 'a', 'f', 'g', 'F', ':', '.', '[', ']', '%', ' ', '-'), fc.constantFrom('insert', 'delete', 'replace'))
  .map(([text, at, char, edit]) => {
    const i = at % (text.length + 1);
    if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
    if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + char + text.slice(i + 1);
  });

property('every valid spelling has the canonical text ipaddr.js gives', () => {
  fc.assert(fc.property(address, (text) => canonicalIp(text) === oracleCanonical(text) && canonicalIp(text) !== null), RUNS);
});

property('an edited spelling is refused exactly when ipaddr.js refuses it', () => {
  fc.assert(fc.property(fc.oneof(mutated, fc.string({ maxLength: 20 })), (text) => canonicalIp(text) === oracleCanonical(text)), RUNS);
});

property('the IPv4 fast path agrees with ipaddr.js on any text', () => {
  fc.assert(
    fc.property(fc.oneof(ipv4, mutated, fc.string({ maxLength: 16 })), (text) => {
      const expected = ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text).toByteArray().reduce((n, b) => n * 256 + b, 0) : -1;
      return ipv4Value(text) === expected;
    }),
    RUNS,
  );
});

property('the client key is the IPv4 address, or the /64 network ipaddr.js computes', () => {
  fc.assert(
    fc.property(address, (text) => {
      const canonical = canonicalIp(text)!;
      const parsed = ipaddr.parse(canonical);
      const expected = parsed.kind() === 'ipv4'
        ? canonical
        : `${new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]).toRFC5952String()}/64`;
      return clientKey(canonical) === expected;
    }),
    RUNS,
  );
});

/** Addresses near a few bases, so that ranges and hops often meet. */
const nearby = fc.oneof(
  fc.tuple(fc.constantFrom('10.0', '203.0', '198.51'), fc.nat(3), fc.nat(255)).map(([base, c, d]) => `${base}.${c}.${d}`),
  fc.tuple(fc.constantFrom('2001:db8', 'fd00:0', '2001:db9'), fc.nat(3), fc.nat(0xffff)).map(([base, c, d]) => `${base}:${c}::${d.toString(16)}`),
);
/** A range as an operator writes it, with its prefix length. */
const range = nearby.chain((base) => fc.integer({ min: 0, max: base.includes(':') ? 128 : 32 }).map((bits) => ({ base, bits, text: `${base}/${bits}` })));

/** Whether ipaddr.js puts an address in one of the ranges (IPv4 ranges also hold the IPv4-mapped form). */
function oracleTrusted(ranges: { base: string; bits: number }[], text: string): boolean {
  const parsed = ipaddr.parse(text);
  const target = parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4).toIPv4MappedAddress() : (parsed as ipaddr.IPv6);
  return ranges.some(({ base, bits }) => {
    const start = ipaddr.parse(base);
    if (start.kind() === 'ipv4') return target.match((start as ipaddr.IPv4).toIPv4MappedAddress(), bits + 96);
    return target.match(start as ipaddr.IPv6, bits);
  });
}

property('a CIDR list holds exactly the addresses ipaddr.js matches', () => {
  fc.assert(
    fc.property(fc.array(range, { minLength: 1, maxLength: 4 }), nearby, (ranges, text) => {
      const set = parseCidrList(ranges.map((r) => r.text).join(', '));
      return set.has(canonicalIp(text)!) === oracleTrusted(ranges, text);
    }),
    RUNS,
  );
});

/** One X-Forwarded-For entry with the port forms of proxies, checked by the oracle on its own. */
function oracleHop(entry: string): string | null {
  const portOk = (port: string) => /^\d{1,5}$/.test(port) && Number(port) <= 65535;
  const v6 = /^\[([^\]]*)\](?::(.*))?$/s.exec(entry);
  if (v6) return v6[1]!.includes(':') && (v6[2] === undefined || portOk(v6[2])) ? oracleCanonical(v6[1]!) : null;
  const v4 = /^([^:]*):([^:]*)$/s.exec(entry);
  if (v4) return ipaddr.IPv4.isValidFourPartDecimal(v4[1]!) && portOk(v4[2]!) ? v4[1]! : null;
  return oracleCanonical(entry);
}

/** The walk the docs describe, written over arrays: from the right, past trusted hops, stopping at garbage. */
function oracleClient(remote: string, header: string, ranges: { base: string; bits: number }[]): string {
  let client = oracleCanonical(remote)!;
  if (!header || !oracleTrusted(ranges, client)) return client;
  for (const entry of header.split(',').reverse()) {
    const hop = oracleHop(entry.trim());
    if (hop === null) return client;
    client = hop;
    if (!oracleTrusted(ranges, hop)) return hop;
  }
  return client;
}

const hop = fc.oneof(
  { weight: 4, arbitrary: nearby },
  { weight: 2, arbitrary: fc.tuple(nearby, fc.integer({ min: 0, max: 70000 })).map(([a, port]) => (a.includes(':') ? `[${a}]:${port}` : `${a}:${port}`)) },
  { weight: 1, arbitrary: fc.constantFrom('unknown', '', '_hidden', '[2001:db8::1', '1.2.3.4:') },
  { weight: 1, arbitrary: mutated },
);

property('the X-Forwarded-For walk picks the client the documented walk picks', () => {
  fc.assert(
    fc.property(
      nearby,
      fc.array(hop, { maxLength: 5 }),
      fc.constantFrom(',', ', ', ' , '),
      fc.array(range, { minLength: 1, maxLength: 3 }),
      (remote, hops, separator, ranges) => {
        const header = hops.join(separator);
        const trusted = parseCidrList(ranges.map((r) => r.text).join(','));
        return resolveClientIp(remote, header, trusted) === oracleClient(remote, header, ranges);
      },
    ),
    RUNS,
  );
});

property('an address with a port appended reads as the address itself', () => {
  fc.assert(
    fc.property(address, fc.nat(65535), (text, port) => {
      const canonical = canonicalIp(text)!;
      const bare = text.startsWith('[') ? text : text.includes(':') ? `[${text}]` : text;
      return forwardedAddress(`${bare}:${port}`) === canonical;
    }),
    RUNS,
  );
});

property.run();
