/**
 * Voter identity: a keyed hash of the client key under the voter secret, so that stored votes never
 * hold an address.
 *
 * @module
 */
import { networkKey } from './client-ip.ts';
import { createKeyedHash } from './keyed-hash.ts';

/**
 * Creates the voter-id function.
 *
 * @param secret The server secret (any string of enough entropy).
 * @returns A function from client key (`clientKeyOf`: an IPv4 address or an IPv6 /64) to voter id
 *   (base64url of the MAC).
 */
export function createVoterId(secret: string): (clientKey: string) => string {
  return createKeyedHash(secret);
}

/**
 * Creates the voter-network function: the voter id's keyed hash (the same secret) of an IPv6 client's /48
 * ("/48" keys never equal a voter's "/64" key); null for IPv4.
 *
 * @param voterId The voter-id function (createVoterId), whose prepared key it reuses.
 */
export function createVoterNetwork(voterId: (clientKey: string) => string): (clientIp: string) => string | null {
  return (clientIp) => {
    const key = networkKey(clientIp);
    return key === null ? null : voterId(key);
  };
}
