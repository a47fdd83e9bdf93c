/**
 * PGlite served over the Postgres wire protocol on 127.0.0.1, for many connections at once: the stand-in
 * for a Postgres server on a machine that has none.
 *
 * PGlite has one backend, so connections take turns. A turn is one whole exchange, up to and including a
 * Sync, a Flush or a simple Query, never a single message, and it lasts until the backend is idle again: @electric-sql/pglite-socket's multiplexer interleaves
 * the Parse/Bind/Execute messages of different connections, which mixes up their unnamed statements as
 * soon as a pool runs queries in parallel. A connection whose exchange leaves a transaction open keeps
 * the backend until the transaction ends (or it disconnects, which rolls it back). Opening a connection
 * takes no turn: the startup is answered at once, as a real server answers it whatever other sessions do.
 */
import type { PGlite } from '@electric-sql/pglite';
import { type AddressInfo, createServer, type Socket } from 'node:net';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
/** Sync: ends an extended-protocol exchange a vanished client left half done. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
/** A simple Query message: rollback. */
const ROLLBACK = (() => {
  const text = Buffer.from('rollback\0');
  const head = Buffer.alloc(5);
  head[0] = 0x51;
  head.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([head, text]);
})();

interface Exchange {
  owner: Socket;
  messages: Buffer[];
}

/** A running stand-in. */
export interface WireServer {
  url: string;
  close(): Promise<void>;
}

/** A startup message (protocol 3.0) for user and database postgres. */
function startupMessage(): Buffer {
  const message = Buffer.concat([Buffer.alloc(8), Buffer.from('user\0postgres\0database\0postgres\0\0')]);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4);
  return message;
}

/** The status byte of the last ReadyForQuery in a backend reply: I idle, T in a transaction, E failed one. */
function lastStatus(reply: Buffer): string | null {
  let status: string | null = null;
  for (let at = 0; at + 5 <= reply.length; at += 1 + reply.readInt32BE(at + 1)) {
    if (reply[at] === 0x5a) status = String.fromCharCode(reply[at + 5]!);
  }
  return status;
}

/**
 * Serves a PGlite on 127.0.0.1 at a free port.
 *
 * @param db The database (every connection sees the same one, with user postgres and database postgres).
 */
export async function serveWire(db: PGlite): Promise<WireServer> {
  // PGlite ignores startup parameters and answers every startup alike (authentication, the server's
  // parameters, ReadyForQuery), but in the turn of whichever connection holds the backend: a new
  // connection then waited for another's transaction to end, as on no real server, and its client's
  // connect timeout ran out on a busy machine (the server program's is 1 s: test/server/multi-instance
  // failed so with two instances migrating at once). So the reply is taken once, now, and every startup
  // is answered at once from it, without a turn; its ReadyForQuery says idle, as a new session is.
  const greeting = await db.runExclusive(async () => {
    const chunks: Buffer[] = [];
    await db.execProtocolRawStream(startupMessage(), { onRawData: (data) => void chunks.push(Buffer.from(data)) });
    return Buffer.concat(chunks);
  });
  if (lastStatus(greeting) !== 'I') throw new Error('the PGlite to serve is inside a transaction');
  const queue: Exchange[] = [];
  const sockets = new Set<Socket>();
  let holder: Socket | null = null;
  let running = false;

  const run = async (): Promise<void> => {
    if (running) return;
    running = true;
    for (;;) {
      const index = holder ? queue.findIndex((e) => e.owner === holder) : 0;
      const exchange = index >= 0 ? queue.splice(index, 1)[0] : undefined;
      if (!exchange) break;
      const chunks: Buffer[] = [];
      try {
        await db.runExclusive(async () => {
          for (const message of exchange.messages) {
            await db.execProtocolRawStream(message, { onRawData: (data) => void chunks.push(Buffer.from(data)) });
          }
        });
      } catch {
        // PGlite itself failed (not a query error, which is a reply): drop this connection, serve the rest.
        holder = null;
        exchange.owner.destroy();
        continue;
      }
      const reply = Buffer.concat(chunks);
      const status = lastStatus(reply);
      if (!sockets.has(exchange.owner)) {
        // Its connection closed while the exchange ran (a client killed mid-transaction): release() has
        // come and gone, so end here what it left open, as a disconnect does, or nobody gets a turn again.
        holder = null;
        if (status !== 'I') await endTransaction().catch(() => undefined);
        continue;
      }
      // Until the backend is idle again (after a Flush, or inside a transaction) this connection keeps it.
      holder = status === 'I' ? null : exchange.owner;
      if (!exchange.owner.destroyed) exchange.owner.write(reply);
    }
    running = false;
  };

  /**
   * Ends what a vanished connection left open: a Sync first (a client killed after a Flush leaves the
   * backend inside an extended-protocol exchange, where a plain `exec('rollback')` waited forever), then a
   * rollback of its transaction, which answers even when there is none or it failed.
   */
  const endTransaction = () =>
    db.runExclusive(async () => {
      await db.execProtocolRawStream(SYNC, { onRawData: () => undefined });
      await db.execProtocolRawStream(ROLLBACK, { onRawData: () => undefined });
    });

  const release = async (socket: Socket): Promise<void> => {
    sockets.delete(socket);
    for (let i = queue.length - 1; i >= 0; i--) if (queue[i]!.owner === socket) queue.splice(i, 1);
    if (holder === socket) {
      try {
        await endTransaction();
      } catch {
        // The database is closed or broken: there is nothing left to end.
      } finally {
        holder = null;
        void run();
      }
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    let started = false;
    let pending: Buffer[] = [];
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST) socket.write('N');
          else if (code === CANCEL_REQUEST) socket.end();
          else {
            started = true;
            socket.write(greeting);
          }
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) return;
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        const type = String.fromCharCode(message[0]!);
        if (type === 'X') {
          socket.end();
          return;
        }
        pending.push(message);
        if (type === 'S' || type === 'Q' || type === 'H') {
          queue.push({ owner: socket, messages: pending });
          pending = [];
          void run();
        }
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => void release(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
