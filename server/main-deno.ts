/**
 * The standalone server program on Deno (Deno.serve): `deno task start` or `npm run start:deno`.
 *
 * @module
 */
import { createDenoHandler } from '../adapters/deno/index.ts';
import { runProgram } from './program.ts';
import { handlerWhenReady, startStandalone } from './standalone.ts';

await runProgram('deno', (config, logger) =>
  startStandalone(config, logger, { now: () => Date.now() }, async (whenApp) => {
    const handler = handlerWhenReady(whenApp, (app) => createDenoHandler(app, { trustedProxies: config.trustedProxies }));
    const server = Deno.serve({ port: config.port, hostname: config.host, onListen: () => undefined }, handler);
    const { hostname, port } = server.addr;
    return { url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`, port, close: () => server.shutdown() };
  }),
);
