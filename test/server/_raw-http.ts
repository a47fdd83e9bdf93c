/**
 * Raw HTTP/1.1 over a socket, for tests that need what a client library hides: keep-alive sockets held
 * open, pipelined requests, bytes that are not HTTP, and when the server closes the connection.
 */
import { connect, type Socket } from 'node:net';

/** A socket to 127.0.0.1:port from a chosen loopback address, with everything it received. */
export interface RawConnection {
  socket: Socket;
  /** All bytes received so far, as text. */
  received(): string;
  /** Resolves when the server has closed the connection, with what was received. */
  closed: Promise<string>;
  /** Resolves once the received text holds `count` whole responses (by Content-Length), or the socket closed. */
  responses(count: number): Promise<string[]>;
}

/** The whole responses in a received text (each framed by its Content-Length). */
export function splitResponses(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return out;
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(rest.slice(0, end))?.[1] ?? 0);
    if (rest.length < end + 4 + length) return out;
    out.push(rest.slice(0, end + 4 + length));
    rest = rest.slice(end + 4 + length);
  }
}

/**
 * Opens a connection and resolves once it is connected.
 *
 * @param port The server's port on 127.0.0.1.
 * @param from The client address (127.0.0.x).
 */
export function openConnection(port: number, from = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    let data = '';
    const waiters: (() => void)[] = [];
    let isClosed = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      data += chunk;
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<string>((done) =>
      socket.on('close', () => {
        isClosed = true;
        for (const wake of waiters.splice(0)) wake();
        done(data);
      })
    );
    socket.on('error', () => undefined);
    const responses = (count: number) =>
      new Promise<string[]>((done) => {
        const check = () => {
          const whole = splitResponses(data);
          if (whole.length >= count || isClosed) done(whole);
          else waiters.push(check);
        };
        check();
      });
    socket.once('connect', () => resolve({ socket, received: () => data, closed, responses }));
    socket.once('error', reject);
  });
}

/** The status line, lower-case headers and body of one raw response. */
export function parseResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/** A GET that keeps the connection open. */
export const KEEP_ALIVE_GET = 'GET /api/v1/version HTTP/1.1\r\nHost: t\r\n\r\n';

/** Sends raw bytes to a server on 127.0.0.1 from an address and returns what it answered before closing. */
export async function exchange(port: number, bytes: string, from: string): Promise<{ raw: string } & ReturnType<typeof parseResponse>> {
  const connection = await openConnection(port, from);
  connection.socket.write(bytes);
  const raw = await connection.closed;
  return { raw, ...parseResponse(raw) };
}
