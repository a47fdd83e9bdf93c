/**
 * The standalone server program on Bun (Bun.serve): `npm run start:bun`. With OPERATOR_PORT, the
 * operator app is served by a second Bun.serve at OPERATOR_HOST.
 *
 * @module
 */
import { createBunHandler } from '../adapters/bun/index.ts';
import { runProgram } from './program.ts';
import { handlerWhenReady, startStandalone } from './standalone.ts';

await runProgram('bun', async (config, logger) => {
  const idleTimeout = Math.min(255, Math.ceil(config.http.requestTimeout / 1000));
  const running = await startStandalone(config, logger, { now: () => Date.now() }, async (whenApp) => {
    const fetch = handlerWhenReady(whenApp, (app) => createBunHandler(app, { trustedProxies: config.trustedProxies }));
    const server = Bun.serve({ port: config.port, hostname: config.host, idleTimeout, fetch });
    return { url: server.url.origin, port: server.port ?? config.port, close: () => server.stop() };
  });
  if (!running.operator || !config.operator) return running;
  let operator: ReturnType<typeof Bun.serve>;
  try {
    operator = Bun.serve({ port: config.operator.port, hostname: config.operator.host, idleTimeout, fetch: createBunHandler(running.operator) });
  } catch (error) {
    // An operator port in use stops the start like the public one.
    await running.stop();
    throw error;
  }
  return {
    ...running,
    operatorUrl: operator.url.origin,
    stop: async () => {
      await operator.stop();
      await running.stop();
    },
  };
});
