/**
 * Where a webhook may be sent: not to this server's network (server-side request forgery). An endpoint
 * whose host is, or resolves to, a loopback, private, link-local or reserved address is refused when it
 * is registered and again at each delivery (DNS may change), unless the operator allows that range
 * (WEBHOOK_ALLOW_NETWORKS, for a receiver on the same network); this server's own listeners never.
 *
 * @module
 */
import { parseCidrList } from '../clients/cidr.ts';
import { canonicalIp, type CidrSet, embeddedIpv4 } from '../clients/client-ip.ts';

/** Addresses no public receiver has: loopback, private, shared, link-local, documentation, multicast, reserved. */
export const NON_PUBLIC_NETWORKS: CidrSet = parseCidrList(
  [
    '0.0.0.0/8, 10.0.0.0/8, 100.64.0.0/10, 127.0.0.0/8, 169.254.0.0/16, 172.16.0.0/12, 192.0.0.0/24, 192.0.2.0/24',
    '192.168.0.0/16, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 224.0.0.0/3',
    // 64:ff9b:1::/48 is local-use NAT64 (RFC 8215), whose prefix length is the network's own choice; 2001::/32
    // is Teredo, whose relay and client are not the receiver (its IPv4 is obfuscated); fec0::/10 is the
    // deprecated site-local range (RFC 3879), which older networks still route inside a site.
    '::/128, ::1/128, 64:ff9b:1::/48, 100::/64, 2001::/32, 2001:db8::/32, fc00::/7, fe80::/10, fec0::/10, ff00::/8',
  ].join(', '),
);

export { embeddedIpv4 } from '../clients/client-ip.ts';

/** What decides where webhooks may go. */
export interface WebhookAddressPolicy {
  /** Non-public ranges the operator allows (a receiver on the same network); none by default. */
  readonly allowed: CidrSet | null;
  /** Resolves a host name to its addresses (DNS); without it, only literal addresses are checked at registration. */
  readonly resolve?: ((host: string) => Promise<string[]>) | undefined;
  /** Whether an address and port is one of this server's own listeners (public, operator, metrics). */
  readonly isOwnListener?: ((ip: string, port: number) => boolean) | undefined;
}

/** The policy of an app given none: every non-public address refused. */
export const STRICT_WEBHOOK_ADDRESSES: WebhookAddressPolicy = { allowed: null };

/**
 * Why an address may not be sent to, or null when it may.
 *
 * @param ip The address a host resolved to (or the literal one).
 * @param port The port of the endpoint.
 */
export function addressRefusal(policy: WebhookAddressPolicy, ip: string, port: number): string | null {
  const canonical = canonicalIp(ip) ?? ip;
  // 6to4, NAT64 and the other forms embedding an IPv4 address are judged as that address, which they reach.
  const embedded = embeddedIpv4(canonical);
  const judged = embedded ?? canonical;
  const named = embedded === null ? canonical : `${canonical} (${embedded})`;
  if (policy.isOwnListener?.(judged, port)) return `${named} port ${port} is a listener of this server`;
  if (!NON_PUBLIC_NETWORKS.has(judged) || policy.allowed?.has(judged)) return null;
  return `${named} is a loopback, private, link-local or reserved address`;
}

/** The port of a URL, the scheme's default when none is written. */
export function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/**
 * Why an endpoint URL may not be registered, or null: its host (a literal address, a name under
 * `localhost`, or every address the name resolves to) is checked against the policy.
 */
export async function endpointRefusal(policy: WebhookAddressPolicy, text: string): Promise<string | null> {
  const url = new URL(text);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = portOf(url);
  const literal = canonicalIp(host);
  if (literal !== null) return addressRefusal(policy, literal, port);
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return addressRefusal(policy, '127.0.0.1', port);
  if (!policy.resolve) return null;
  let addresses: string[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  for (const address of addresses) {
    const refusal = addressRefusal(policy, address, port);
    if (refusal !== null) return `${host} resolves to ${refusal}`;
  }
  return null;
}
