/**
 * Connection caps for a node:http server: so many open connections per client address, so many in
 * total. A connection over the per-client cap is closed at once, before anything is read from it, so one
 * address cannot hold the file descriptors every other client needs. At the total cap a new connection
 * from a client holding less than its share (open connections over clients) takes the place of a stalled
 * one (see `stalled`) of the client holding the most, the way nginx drains idle keep-alive connections when
 * it runs out: a few hundred slow uploads from a few addresses cannot keep every other client out.
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { canonicalIp, type CidrSet, clientKey } from '../../core/clients/client-ip.ts';

export interface ConnectionLimits {
  /** Open connections one client may hold (an IPv4 address, an IPv6 /64). */
  perClient: number;
  /** Open connections in total. */
  total: number;
  /** Peers exempt from the per-client cap (the trusted proxies, which carry many clients); the total still holds. */
  exempt?: CidrSet | null;
  /** Told of each connection closed for a cap: refused at once, or closed to make room (`evicted`). */
  onRefused?: (peer: string, cap: 'per-client' | 'total' | 'evicted') => void;
  /** How long a connection is open before it may be closed to make room; 1000 ms by default. */
  stalledAfterMs?: number;
  /** Milliseconds since the epoch; the system clock by default. */
  now?: () => number;
}

/** What node:http keeps on a socket (lib/_http_server.js): the answer being written, the request being read. */
type HttpSocket = Socket & {
  _httpMessage?: object | null;
  parser?: { incoming?: { complete: boolean } | null } | null;
};

/**
 * Whether a connection may be closed to make room: open for `stalledAfterMs` and not waiting for an
 * answer of the server's. That is an idle keep-alive connection, one still sending its headers, or one
 * still sending its body; a request whose whole body is in (being answered) is never cut.
 */
function stalled(socket: HttpSocket, openedAt: number, now: number, stalledAfterMs: number): boolean {
  if (now - openedAt < stalledAfterMs) return false;
  if (!socket._httpMessage) return true;
  const incoming = socket.parser?.incoming;
  return incoming !== null && incoming !== undefined && !incoming.complete;
}

/**
 * Applies the caps to a server; call before it listens.
 *
 * @param server The node:http server.
 * @param limits The caps.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const perClient = new Map<string, number>();
  // Insertion order is opening order, so among equals the first found is the one open longest.
  const opened = new Map<Socket, { openedAt: number; key: string | null }>();
  const exempt = limits.exempt ?? null;
  const stalledAfterMs = limits.stalledAfterMs ?? 1000;
  const now = limits.now ?? Date.now;

  /** Closes the stalled connection of the client holding the most connections; false when none is stalled. */
  const makeRoom = (): boolean => {
    const at = now();
    let victim: Socket | null = null;
    let most = -1;
    for (const [socket, { openedAt, key }] of opened) {
      const held = key === null ? 0 : (perClient.get(key) ?? 0);
      if (held <= most || !stalled(socket as HttpSocket, openedAt, at, stalledAfterMs)) continue;
      victim = socket;
      most = held;
    }
    if (victim === null) return false;
    opened.delete(victim);
    victim.destroy();
    limits.onRefused?.(canonicalIp(victim.remoteAddress ?? '') ?? '', 'evicted');
    return true;
  };

  server.on('connection', (socket: Socket) => {
    const peer = canonicalIp(socket.remoteAddress ?? '') ?? socket.remoteAddress ?? '';
    const key = exempt?.has(peer) ? null : clientKey(peer);
    const count = key === null ? 0 : (perClient.get(key) ?? 0);
    if (key !== null && count >= limits.perClient) {
      socket.destroy();
      limits.onRefused?.(peer, 'per-client');
      return;
    }
    // At the cap, a client already holding its share (open connections over clients) takes no one's place.
    const atCap = opened.size >= limits.total;
    if (atCap && (count * perClient.size >= opened.size || !makeRoom())) {
      socket.destroy();
      limits.onRefused?.(peer, 'total');
      return;
    }
    opened.set(socket, { openedAt: now(), key });
    socket.once('close', () => opened.delete(socket));
    if (key === null) return;
    perClient.set(key, count + 1);
    socket.once('close', () => {
      const left = (perClient.get(key) ?? 1) - 1;
      if (left > 0) perClient.set(key, left);
      else perClient.delete(key);
    });
  });
}
