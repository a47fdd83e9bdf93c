/**
 * Backpressure for requests that wait for the storage, one line per connection.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';

/**
 * The requests of one connection that wait for the storage. node:http stops reading a connection whose
 * answers are not read only once written answers pile up; answers that wait for the storage (PostgreSQL's
 * rate-limit counters) write nothing meanwhile, so a client that pipelines requests and reads nothing made
 * the server parse and start all of them (memory and database work without bound). At MAX_IN_FLIGHT
 * started requests, further ones wait here and the connection stops being read until they drain.
 */
export interface Line {
  inFlight: number;
  waiting: (() => void)[];
  paused: boolean;
}

/** Requests of one connection started at once; a browser or a keep-alive client has one at a time. */
export const MAX_IN_FLIGHT = 8;

export const PIPELINE = Symbol('pipeline');
/**
 * node:http's own pause of a connection (lib/_http_server.js): `_paused` keeps node from resuming the socket
 * when an answer ends, and pausing the parser stops it within the bytes already read. Set and cleared as
 * node's own backpressure does (socketOnDrain).
 */
export type PipelinedSocket = IncomingMessage['socket'] & {
  [PIPELINE]?: Line;
  _paused?: boolean;
  parser?: { pause(): void; resume(): void } | null;
};

/** Queues a request behind the connection's started ones and stops reading the connection. */
export function waitInLine(socket: PipelinedSocket, line: Line, start: () => void): void {
  line.waiting.push(start);
  if (line.paused) return;
  line.paused = true;
  socket._paused = true;
  socket.parser?.pause();
  socket.pause();
}

/** One started request is answered: start the next waiting one, or read the connection again. */
export function leaveLine(socket: PipelinedSocket, line: Line): void {
  line.inFlight--;
  const next = line.waiting.shift();
  if (next !== undefined) next();
  else if (line.paused) {
    line.paused = false;
    socket._paused = false;
    socket.parser?.resume();
    socket.resume();
  }
}
