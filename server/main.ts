/**
 * The standalone server program: `npm start` (the `serve` command of server/cli/main.ts).
 *
 * @module
 */
import { serveOnNode } from './cli/serve.ts';

await serveOnNode();
