/**
 * The unit tier's guard, loaded by ./preload.ts when TEST_TIER is `unit`: starting a child process,
 * listening on or connecting to a socket throws, naming what was tried and where the file belongs, so a
 * unit file cannot quietly come to need a server, a program or a database (scripts/test-tiers.ts).
 * Importing PGlite is refused by ./hooks.ts.
 *
 * @module
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

/** The error a forbidden call throws. */
export function refused(what: string): Error {
  const instead = 'run it through app.handle on memory storage, or place this file in the storage or e2e tier (scripts/test-tiers.ts)';
  return new Error(`the unit tier allows no ${what}: ${instead}`);
}

const PROCESS_FUNCTIONS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
for (const name of PROCESS_FUNCTIONS) {
  Object.defineProperty(childProcess, name, {
    value: (command: unknown) => {
      throw refused(`child process (${name} ${String(command)})`);
    },
  });
}
syncBuiltinESMExports();

net.Server.prototype.listen = function listen(): never {
  throw refused('listening socket');
};
globalThis.fetch = (input: string | URL | Request): never => {
  throw refused(`socket connection (fetch ${input instanceof Request ? input.url : String(input)})`);
};
net.Socket.prototype.connect = function connect(): never {
  throw refused('socket connection (fetch, a database, a server)');
};
