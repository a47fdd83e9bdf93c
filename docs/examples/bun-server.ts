// Bun: `bun bun-server.ts`.
import { createBunHandler } from 'converter-site-api/bun';
import { createSiteApp } from './site.ts';

const server = Bun.serve({ port: Number(process.env['PORT'] ?? 8080), hostname: '127.0.0.1', fetch: createBunHandler(await createSiteApp()) });
console.log(`listening on ${server.url.origin}`);
