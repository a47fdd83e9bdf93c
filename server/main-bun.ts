/**
 * The standalone server program on Bun (Bun.serve): `npm run start:bun`.
 *
 * @module
 */
import { createBunHandler } from '../adapters/bun/index.ts';
import { runProgram } from './program.ts';
import { createServerApp, HTTP_LIMITS } from './start.ts';

await runProgram('bun', async (config, logger) => {
  const { app, storage } = await createServerApp(config, logger, { now: () => Date.now() });
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    idleTimeout: HTTP_LIMITS.requestTimeout / 1000,
    fetch: createBunHandler(app, { trustedProxies: config.trustedProxies }),
  });
  return {
    url: server.url.origin,
    stop: async () => {
      await server.stop();
      await storage.close?.();
    },
  };
});
