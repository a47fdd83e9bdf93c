/**
 * The standalone server program on Node (node:http): `npm start`.
 *
 * @module
 */
import { runProgram } from './program.ts';
import { startServer } from './start.ts';

await runProgram('node', startServer);
