/**
 * The standalone server program on Bun (Bun.serve): `npm run start:bun`.
 *
 * @module
 */
import { createBunHandler } from '../adapters/bun/index.ts';
import { runProgram } from './program.ts';
import { handlerWhenReady, startStandalone } from './standalone.ts';

await runProgram('bun', (config, logger) =>
  startStandalone(config, logger, { now: () => Date.now() }, async (whenApp) => {
    const fetch = handlerWhenReady(whenApp, (app) => createBunHandler(app, { trustedProxies: config.trustedProxies }));
    const server = Bun.serve({ port: config.port, hostname: config.host, idleTimeout: Math.min(255, Math.ceil(config.http.requestTimeout / 1000)), fetch });
    return { url: server.url.origin, port: server.port ?? config.port, close: () => server.stop() };
  }),
);
