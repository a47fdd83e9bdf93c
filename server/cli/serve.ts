/**
 * `converter-site-api serve` (the default command): the standalone server on node:http, as `npm start`
 * runs it.
 *
 * @module
 */
import { runProgram } from '../program.ts';
import { startServer } from '../start.ts';
import { type Command, EXIT, parseCommandLine } from './command.ts';

/** Runs the standalone server on node:http until SIGTERM or SIGINT (then exit 0). */
export function serveOnNode(): Promise<void> {
  return runProgram('node', (config, logger) => startServer(config, logger));
}

export const serve: Command = {
  name: 'serve',
  summary: 'serve the API over HTTP (the default command)',
  help: `usage: converter-site-api [serve]

Serves the API over HTTP until SIGTERM or SIGINT, then finishes the requests in flight and exits 0.
Settings come from the environment (PORT, HOST, CONFIG_FILE, STORAGE, DATA_DIR, DATABASE_URL,
DATABASE_SCHEMA, TRUSTED_PROXIES, VOTER_SECRET, LICENSE_SIGNING_KEY, PAYMENT_GATEWAY, STRIPE_*,
LOG_LEVEL, LOG_REQUESTS, METRICS_PORT, METRICS_HOST, DRAIN_SECONDS) and the config file: CONFIG_FILE,
else ./config.json, else the shipped example.
Logs are JSON lines: debug and info on stdout, warnings and errors on stderr. GET /healthz and
GET /readyz are the probes; with METRICS_PORT set, GET /metrics serves Prometheus metrics there.

exit codes: 0 stopped by a signal, 1 could not start (database unreachable, port in use),
            64 usage error, 78 a setting is refused or another process holds DATA_DIR
`,
  async run(args) {
    parseCommandLine(args, {});
    await serveOnNode();
    // The server runs on; the program exits from its signal handler.
    return EXIT.ok;
  },
};
