/**
 * The standalone server program on Deno (Deno.serve): `deno task start` or `npm run start:deno`.
 *
 * @module
 */
import { createDenoHandler } from '../adapters/deno/index.ts';
import { runProgram } from './program.ts';
import { createServerApp } from './start.ts';

await runProgram('deno', async (config, logger) => {
  const { app, storage } = await createServerApp(config, logger, { now: () => Date.now() });
  const server = Deno.serve(
    { port: config.port, hostname: config.host, onListen: () => undefined },
    createDenoHandler(app, { trustedProxies: config.trustedProxies }),
  );
  const { hostname, port } = server.addr;
  return {
    url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
    stop: async () => {
      await server.shutdown();
      await storage.close?.();
    },
  };
});
