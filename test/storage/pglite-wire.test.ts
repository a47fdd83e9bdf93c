/**
 * The PGlite stand-in for PostgreSQL (test/_pglite-wire.ts) opens a connection while another holds the
 * backend in a transaction, as a real server does: its startup took a turn and waited for that
 * transaction, so under load a server program's 1 s connect timeout ran out (test/server/multi-instance:
 * two instances migrating at once, "write CONNECT_TIMEOUT").
 */
import { PGlite } from '@electric-sql/pglite';
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScaled } from '../_load.ts';
import { serveWire } from '../_pglite-wire.ts';

/** Reads a socket's backend messages until a ReadyForQuery; resolves with the messages' type letters. */
function untilReady(socket: Socket): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const types: string[] = [];
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        const length = 1 + buffer.readInt32BE(1);
        const type = String.fromCharCode(buffer[0]!);
        types.push(type === 'Z' ? `Z${String.fromCharCode(buffer[5]!)}` : type);
        buffer = buffer.subarray(length);
        if (type === 'Z') {
          socket.off('data', onData);
          resolve(types);
          return;
        }
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

function startup(): Buffer {
  const message = Buffer.concat([Buffer.alloc(8), Buffer.from('user\0postgres\0database\0postgres\0\0')]);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196608, 4);
  return message;
}

function simpleQuery(text: string): Buffer {
  const body = Buffer.from(`${text}\0`);
  const head = Buffer.alloc(5);
  head[0] = 0x51;
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

test('a connection opens while another holds a transaction, and its query runs once that ends', async () => {
  const db = await PGlite.create();
  const server = await serveWire(db);
  const holder = postgres(server.url, { max: 1, onnotice: () => {} });
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  const connected = new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  try {
    const reserved = await holder.reserve();
    await reserved.unsafe('begin');
    await reserved.unsafe('create table t (n int)');

    await connected;
    socket.write(startup());
    // The greeting comes while the transaction is open: the bound is a guard against the old wait (it
    // never came before the commit below), not a guess at how long the answer takes.
    const bound = loadScaled(2_000);
    const greeting = await Promise.race([
      untilReady(socket),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no greeting within ${bound} ms`)), bound).unref()),
    ]);
    assert.is(greeting[0], 'R', 'authentication first');
    assert.is(greeting.at(-1), 'ZI', 'the new session is idle, not inside the other connection’s transaction');

    // Its statement takes its turn after the transaction: it sees the table committed.
    const answered = untilReady(socket);
    socket.write(simpleQuery('select count(*) from t'));
    await reserved.unsafe('insert into t values (1)');
    await reserved.unsafe('commit');
    reserved.release();
    const reply = await answered;
    assert.equal(reply, ['T', 'D', 'C', 'ZI'], 'a row description, one row, complete, idle: not an error');
  } finally {
    socket.destroy();
    await holder.end({ timeout: 5 });
    await server.close();
    await db.close();
  }
});

test.run();
