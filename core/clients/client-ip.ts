/**
 * Client addresses: parsing, trusted-proxy resolution of X-Forwarded-For, and the per-client key.
 *
 * @module
 */

/** An address as 8 groups of 16 bits (IPv4 is mapped into ::ffff:0:0/96). */
export type Groups = number[];

/**
 * The 32-bit value of a canonical dotted IPv4 address (four parts, each 0-255 without a leading zero),
 * or -1 for any other text. One pass over the characters: it runs several times per request.
 */
export function ipv4Value(text: string): number {
  const length = text.length;
  if (length < 7 || length > 15) return -1;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
      digits++;
    } else return -1;
  }
  return dots === 3 && digits > 0 ? value * 256 + part : -1;
}

/** A canonical dotted IPv4 address as its two 16-bit groups, or null (the one parser: `ipv4Value`). */
export function parseIpv4(text: string): [number, number] | null {
  const value = ipv4Value(text);
  return value < 0 ? null : [Math.floor(value / 65536), value % 65536];
}

function parseHexGroups(part: string): Groups | null {
  if (part === '') return [];
  const groups: Groups = [];
  for (const g of part.split(':')) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    groups.push(parseInt(g, 16));
  }
  return groups;
}

/** A zone id as RFC 6874 allows it (unreserved characters), e.g. an interface name such as eth0.100. */
const ZONE_ID = /^[A-Za-z0-9._~-]+$/;

/** Parses an IPv4 or IPv6 address (zone ids dropped) into 8 groups; null when it is not one. */
export function parseIp(text: string): Groups | null {
  const v4 = parseIpv4(text);
  if (v4) return [0, 0, 0, 0, 0, 0xffff, v4[0], v4[1]];
  let rest = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = rest.indexOf('%');
  if (zone >= 0) {
    if (!ZONE_ID.test(rest.slice(zone + 1))) return null;
    rest = rest.slice(0, zone);
  }
  const lastColon = rest.lastIndexOf(':');
  if (lastColon >= 0 && rest.includes('.', lastColon)) {
    const embedded = parseIpv4(rest.slice(lastColon + 1));
    if (!embedded) return null;
    rest = `${rest.slice(0, lastColon + 1)}${embedded[0].toString(16)}:${embedded[1].toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const head = parseHexGroups(halves[0]!);
  const back = halves.length === 2 ? parseHexGroups(halves[1]!) : [];
  if (!head || !back) return null;
  const given = head.length + back.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  return [...head, ...new Array<number>(8 - given).fill(0), ...back];
}

export function isMappedV4(g: Groups): boolean {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
}

function formatV4(g: Groups): string {
  return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
}

/** IPv6 text as RFC 5952 writes it: lower case, the longest run of two or more zero groups as "::". */
export function formatV6(g: Groups): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

/**
 * The canonical text of an address: IPv4 dotted (IPv4-mapped IPv6 unwrapped), IPv6 as RFC 5952
 * writes it, so that one client always has one spelling.
 */
export function canonicalIp(text: string): string | null {
  if (ipv4Value(text) >= 0) return text;
  if (text.startsWith('::ffff:') && ipv4Value(text.slice(7)) >= 0) return text.slice(7);
  const g = parseIp(text);
  if (!g) return null;
  return isMappedV4(g) ? formatV4(g) : formatV6(g);
}

/**
 * The key a client is counted and recognised by: its IPv4 address, or its IPv6 /64 prefix (one
 * subscriber usually holds a whole /64, so single IPv6 addresses would let one client act as many).
 *
 * @param ip An address as returned by `resolveClientIp`.
 * @returns e.g. "203.0.113.7" or "2001:db8:0:1::/64".
 */
export function clientKey(ip: string): string {
  if (ipv4Value(ip) >= 0) return ip;
  const g = parseIp(ip);
  if (!g) return ip;
  if (isMappedV4(g)) return formatV4(g);
  return `${formatV6([...g.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/**
 * The client key of a request: the one the pipeline set when it took the request, else computed now and
 * kept on it, so that a request's address is parsed once whoever asks (limiter, voter id, rollout bucket).
 */
export function clientKeyOf(request: { readonly clientIp: string; clientKey?: string | undefined }): string {
  return (request.clientKey ??= clientKey(request.clientIp));
}

/**
 * The network an IPv6 client belongs to, for the cap on votes per network: its /48, which providers
 * commonly give one customer (thousands of /64s); null for IPv4 and IPv4-mapped addresses.
 *
 * @returns e.g. "2001:db8:1::/48", or null.
 */
export function networkKey(ip: string): string | null {
  if (ipv4Value(ip) >= 0) return null;
  const g = parseIp(ip);
  if (!g || isMappedV4(g)) return null;
  return `${formatV6([...g.slice(0, 3), 0, 0, 0, 0, 0])}/48`;
}

/**
 * The IPv4 address an IPv6 one stands for, which a packet to it reaches: NAT64's well-known prefix
 * (64:ff9b::/96, RFC 6052), 6to4 (2002:AABB:CCDD::/48, RFC 3056: the relay forwards to AA.BB.CC.DD),
 * IPv4-translated (::ffff:0:a.b.c.d, RFC 2765) and IPv4-compatible (::a.b.c.d, RFC 4291; not ::
 * and ::1), from its parsed groups; null for any other. IPv4-mapped ones (::ffff:a.b.c.d) are IPv4
 * already (canonicalIp). Where webhooks may go (core/webhooks/address.ts) and who reports a bug
 * (core/clients/party.ts) both judge such an address as its IPv4.
 */
export function embeddedIpv4OfGroups(g: Groups): string | null {
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6]! > 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  return null;
}

/** `embeddedIpv4OfGroups` of an address's text; null for text that is no address. */
export function embeddedIpv4(ip: string): string | null {
  const g = parseIp(ip);
  return g ? embeddedIpv4OfGroups(g) : null;
}

/** A set of address ranges. */
export interface CidrSet {
  has(ip: string): boolean;
  /** The ranges as given, for logs. */
  readonly source: readonly string[];
}

/** A port as proxies append it: 1 to 5 digits, at most 65535. */
const PORT = /^\d{1,5}$/;

function isPort(text: string): boolean {
  return PORT.test(text) && Number(text) <= 65535;
}

/**
 * The canonical address of one X-Forwarded-For entry. Besides a bare address it takes the forms of
 * proxies that append the client's port: `203.0.113.7:5555` and `[2001:db8::1]:5555`. A bare IPv6 address
 * keeps all its colons (a trailing group is never read as a port).
 *
 * @param entry One entry, without the surrounding spaces.
 * @returns The canonical address, or null when the entry is not an address.
 */
export function forwardedAddress(entry: string): string | null {
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) return null;
    const rest = entry.slice(close + 1);
    if (rest !== '' && !(rest.startsWith(':') && isPort(rest.slice(1)))) return null;
    const inner = entry.slice(1, close);
    // Brackets hold an IPv6 address only.
    return inner.includes(':') ? canonicalIp(inner) : null;
  }
  const colon = entry.indexOf(':');
  if (colon >= 0 && colon === entry.lastIndexOf(':')) {
    const host = entry.slice(0, colon);
    return ipv4Value(host) >= 0 && isPort(entry.slice(colon + 1)) ? host : null;
  }
  return canonicalIp(entry);
}

/**
 * The client address of a request.
 *
 * The socket's peer is the client unless it is a trusted proxy; only then is X-Forwarded-For read, from
 * the right, skipping trusted proxies: the first address that is not one is the client. An entry that is
 * not an address stops the walk at the last trusted hop, since nothing left of it can be believed. Entries
 * may carry a port (see `forwardedAddress`).
 *
 * @param remoteAddress The socket's peer address.
 * @param forwardedFor The X-Forwarded-For header, if any.
 * @param trusted The operator's trusted proxies, or null when there are none.
 * @returns The canonical client address.
 */
export function resolveClientIp(
  remoteAddress: string,
  forwardedFor: string | undefined,
  trusted: CidrSet | null,
): string {
  const peer = canonicalIp(remoteAddress) ?? remoteAddress;
  if (!trusted || !forwardedFor || !trusted.has(peer)) return peer;
  return forwardedClient(peer, forwardedFor, trusted);
}

/**
 * The client behind a trusted peer (see `resolveClientIp`): for adapters that know per connection that
 * the peer, in canonical form, is a trusted proxy.
 */
export function forwardedClient(peer: string, forwardedFor: string, trusted: CidrSet): string {
  let client = peer;
  // Hop by hop from the right, without splitting the header into an array first.
  for (let end = forwardedFor.length; end > 0;) {
    const start = forwardedFor.lastIndexOf(',', end - 1) + 1;
    const hop = forwardedAddress(forwardedFor.slice(start, end).trim());
    if (!hop) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
    end = start - 1;
  }
  return client;
}
