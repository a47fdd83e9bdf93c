/**
 * The standalone server program on node:http: `npm start` (the same program as the `serve` command of
 * server/cli/main.ts, which the `converter-site-api` binary runs).
 *
 * @module
 */
import { runProgram } from './program.ts';
import { startServer } from './start.ts';

await runProgram('node', (config, logger) => startServer(config, logger));
