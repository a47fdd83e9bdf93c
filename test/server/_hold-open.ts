/**
 * Loaded with `--import` before the CLI: opens a connection to HOLD_OPEN_PORT on 127.0.0.1 and keeps it,
 * referenced, for as long as the peer does: a handle of the process that the kit does not own (as a
 * runtime's keep-alive socket, a timer of a payment hook, a background request may be), which would
 * hold the process after the report unless the command ends it.
 */
import { connect } from 'node:net';

const port = Number(process.env['HOLD_OPEN_PORT']);
if (port > 0) connect(port, '127.0.0.1').on('error', () => undefined);
