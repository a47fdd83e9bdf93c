/**
 * The standalone server program on Deno (Deno.serve): `deno task start` or `npm run start:deno`. With
 * OPERATOR_PORT, the operator app is served by a second Deno.serve at OPERATOR_HOST.
 *
 * @module
 */
import { createDenoHandler } from '../adapters/deno/index.ts';
import type { App } from '../core/app.ts';
import { runProgram } from './program.ts';
import { handlerWhenReady, startStandalone } from './standalone.ts';

/** Serves `app` at host:port; the url and how to stop. */
function serve(handler: Deno.ServeHandler, port: number, hostname: string) {
  const server = Deno.serve({ port, hostname, onListen: () => undefined }, handler);
  const { hostname: bound, port: boundPort } = server.addr;
  return { url: `http://${bound.includes(':') ? `[${bound}]` : bound}:${boundPort}`, port: boundPort, close: () => server.shutdown() };
}

await runProgram('deno', async (config, logger) => {
  const running = await startStandalone(
    config,
    logger,
    { now: () => Date.now() },
    async (whenApp) => serve(handlerWhenReady(whenApp, (app) => createDenoHandler(app, { trustedProxies: config.trustedProxies })), config.port, config.host),
  );
  if (!running.operator || !config.operator) return running;
  let operator: ReturnType<typeof serve>;
  try {
    operator = serve(createDenoHandler(running.operator as App), config.operator.port, config.operator.host);
  } catch (error) {
    // An operator port in use stops the start like the public one.
    await running.stop();
    throw error;
  }
  return {
    ...running,
    operatorUrl: operator.url,
    stop: async () => {
      await operator.close();
      await running.stop();
    },
  };
});
