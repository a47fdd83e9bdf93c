// Bun: `bun bun-server.ts`.
import { createBunHandler } from 'converter-site-api/bun';
import { createSiteApp } from './site.ts';

const port = Number(process.env['PORT'] ?? 8080);
const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: createBunHandler(await createSiteApp(`http://localhost:${port}`)) });
console.log(`listening on ${server.url.origin}`);
