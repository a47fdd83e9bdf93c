/**
 * Where this server sends webhooks, on Node: host names resolved through DNS, this server's own listeners
 * known, and each delivery sent by node:http(s) with a `lookup` that checks the addresses the connection
 * will use, so a name that resolves elsewhere since registration (DNS rebinding) is refused at the
 * socket, and no redirect is followed.
 *
 * @module
 */
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions, promises as dns } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { networkInterfaces } from 'node:os';
import type { CidrSet } from '../core/clients/client-ip.ts';
import { addressRefusal, portOf, type WebhookAddressPolicy } from '../core/webhooks/address.ts';
import type { DeliveryWorkerOptions } from '../core/webhooks/worker.ts';

/**
 * The addresses of this machine's interfaces, and the unspecified ones a listener may bind. Where the
 * runtime may not list interfaces (Deno without --allow-sys), loopback and the unspecified ones only.
 */
function localAddresses(): Set<string> {
  const found = new Set<string>(['0.0.0.0', '::']);
  try {
    for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) found.add(entry.address);
  } catch {
    // Not allowed to list them: a listener's own public address is then checked as any other address.
  }
  return found;
}

/**
 * The policy of this server: `allowed` ranges (WEBHOOK_ALLOW_NETWORKS), DNS, and its own listeners.
 *
 * @param ownPorts The ports this server listens on (public, operator, metrics), filled as they are bound.
 */
export function webhookAddressPolicy(allowed: CidrSet | null, ownPorts: ReadonlySet<number>): WebhookAddressPolicy {
  let local: Set<string> | null = null;
  return {
    allowed,
    resolve: async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address),
    isOwnListener: (ip, port) => ownPorts.has(port) && (ip.startsWith('127.') || ip === '::1' || (local ??= localAddresses()).has(ip)),
  };
}

type Lookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * Sends a delivery with node:http(s): every address the host resolves to is checked when the socket
 * connects; a redirect is answered as its status (a failed attempt), never followed; the answer's body is
 * read and dropped.
 */
export function guardedSender(policy: WebhookAddressPolicy): DeliveryWorkerOptions['fetch'] {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const port = portOf(target);
      const checked: Lookup = (hostname, options, callback) => {
        lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
          if (error) return callback(error, '');
          for (const { address } of addresses) {
            const refusal = addressRefusal(policy, address, port);
            if (refusal !== null) return callback(new Error(`refused: ${hostname} resolves to ${refusal}`), '');
          }
          const [first] = addresses;
          if (!first) return callback(new Error(`${hostname} does not resolve`), '');
          if ((options as LookupAllOptions).all) callback(null, addresses);
          else callback(null, first.address, first.family);
        });
      };
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(
        target,
        {
          method: init.method,
          headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
          lookup: checked,
          signal: init.signal,
          agent: false,
        },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(init.body);
    });
}
