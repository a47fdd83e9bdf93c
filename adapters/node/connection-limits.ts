/**
 * Connection caps for a node:http server: so many open connections per client address, so many in
 * total. A connection over a cap is closed at once, before anything is read from it, so one address
 * cannot hold the file descriptors every other client needs.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { canonicalIp, clientKey, type CidrSet } from '../../core/client-ip.ts';

export interface ConnectionLimits {
  /** Open connections one client may hold (an IPv4 address, an IPv6 /64). */
  perClient: number;
  /** Open connections in total (node's `server.maxConnections`). */
  total: number;
  /** Peers exempt from the per-client cap (the trusted proxies, which carry many clients); the total still holds. */
  exempt?: CidrSet | null;
  /** Told of each connection closed for a cap. */
  onRefused?: (peer: string, cap: 'per-client' | 'total') => void;
}

/**
 * Applies the caps to a server; call before it listens.
 *
 * @param server The node:http server.
 * @param limits The caps.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Map<string, number>();
  const exempt = limits.exempt ?? null;
  server.maxConnections = limits.total;
  server.on('drop', (data?: { remoteAddress?: string }) => limits.onRefused?.(data?.remoteAddress ?? '', 'total'));
  server.on('connection', (socket: Socket) => {
    const peer = canonicalIp(socket.remoteAddress ?? '') ?? socket.remoteAddress ?? '';
    if (exempt?.has(peer)) return;
    const key = clientKey(peer);
    const count = open.get(key) ?? 0;
    if (count >= limits.perClient) {
      socket.destroy();
      limits.onRefused?.(peer, 'per-client');
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
