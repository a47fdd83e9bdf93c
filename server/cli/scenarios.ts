/**
 * `converter-site-api scenarios --port N`: the scenario server for the desktop app's own tests
 * (docs/conformance.md "Testing the desktop app"), on 127.0.0.1 by default, until SIGINT or SIGTERM.
 *
 * @module
 */
import { stopWithNpmParent } from '../npm-parent.ts';
import { listenScenarios } from '../scenarios/listen.ts';
import { SCENARIO_PUBLIC_KEY } from '../scenarios/test-keys.ts';
import { type Command, EXIT, type Io, parseCommandLine, UsageError } from './command.ts';

const HELP = `usage: converter-site-api scenarios --port <port> [--host <address>]

Serves the answers a desktop app must handle, one scenario under each /scenario/<name>/ prefix (its
update check and license re-check under /scenario/<name>/api/v1/..., its installers beside them):
no update, an update offered, a staged release the client is outside of, a critical update, a pulled
release, an expired signature, a tampered body, a tampered installer digest, an installer that does not
match its digest, 429, 500, and license standings valid, revoked, unknown and signed with another key.
GET /scenarios lists each with what a correct app does. Answers are signed with a published TEST key
(public half ${SCENARIO_PUBLIC_KEY}): never trust it outside tests. Not the public API.

Prints its address on stdout, then serves until SIGINT or SIGTERM (exit 0).

options:
  --port <port>      the port to listen on (0: any free port; required)
  --host <address>   the address to listen on (127.0.0.1 by default)

exit codes: 0 stopped by a signal, 1 could not listen, 64 usage error
`;

function portOf(value: string | undefined): number {
  if (value === undefined) throw new UsageError('--port is required');
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--port must be a port number from 0 to 65535, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * Runs the command until a signal stops it.
 *
 * @param args The words after `scenarios`.
 * @param io Where the address and messages go.
 * @param stopped Resolves when the server is to stop (SIGINT or SIGTERM by default).
 */
export async function runScenariosCommand(args: string[], io: Io, stopped?: Promise<void>): Promise<number> {
  const { values } = parseCommandLine(args, { port: { type: 'string' }, host: { type: 'string' } });
  const port = portOf(values.port);
  const host = values.host ?? '127.0.0.1';
  const logger = { info: () => {}, warn: () => {}, error: (message: string) => io.stderr(`${message}\n`) };
  // Watched from the start, as the server's are (program.ts): a stop that comes early still stops it.
  const signalled = stopped ?? new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    // Under npm run scenarios, npm exits on SIGTERM without passing it on: stop with it (npm-parent.ts).
    stopWithNpmParent(() => resolve());
  });
  const listening = await listenScenarios({ host, port, logger });
  io.stdout(`${listening.url}\n`);
  io.stderr(
    `converter-site-api scenarios: ${listening.server.scenarios.length} scenarios at ${listening.url}/scenarios, signed with the TEST key ${SCENARIO_PUBLIC_KEY}\n`,
  );
  await (stopped ?? signalled);
  await listening.close();
  return EXIT.ok;
}

export const scenarios: Command = {
  name: 'scenarios',
  summary: "serve the scenarios of the desktop app's tests (signed with a test key)",
  help: HELP,
  run: (args: string[], io: Io) => runScenariosCommand(args, io),
};
