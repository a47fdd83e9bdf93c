/**
 * The standalone server program on Bun (Bun.serve): `npm run start:bun`.
 *
 * @module
 */
import { createBunHandler } from '../adapters/bun/index.ts';
import { runProgram } from './program.ts';
import { handlerWhenReady, startStandalone } from './standalone.ts';
import { HTTP_LIMITS } from './start.ts';

/** One turn of the event loop, so that Bun reads requests whose bytes have already arrived. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

await runProgram('bun', (config, logger) =>
  startStandalone(config, logger, { now: () => Date.now() }, async (whenApp) => {
    const fetch = handlerWhenReady(whenApp, (app) => createBunHandler(app, { trustedProxies: config.trustedProxies }));
    const server = Bun.serve({ port: config.port, hostname: config.host, idleTimeout: HTTP_LIMITS.requestTimeout / 1000, fetch });
    return {
      url: server.url.origin,
      port: server.port ?? config.port,
      // server.stop() waits only for requests Bun has started to handle: one whose bytes arrived in the
      // same turn as SIGTERM would have its connection closed unanswered.
      close: () => nextTurn().then(() => server.stop()),
    };
  }),
);
