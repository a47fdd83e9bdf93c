/**
 * The standalone server program: `npm start`.
 *
 * @module
 */
import { runProgram } from './program.ts';
import { startServer } from './start.ts';

await runProgram('node', (config, logger) => startServer(config, logger));
