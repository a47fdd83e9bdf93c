// Deno: `deno run --allow-net --allow-read --allow-env deno-server.ts`.
import { createDenoHandler } from 'converter-site-api/deno';
import { createSiteApp } from './site.ts';

const port = Number(Deno.env.get('PORT') ?? 8080);
const handler = createDenoHandler(await createSiteApp(`http://localhost:${port}`));
Deno.serve({ port, hostname: '127.0.0.1', onListen: () => console.log(`listening on http://127.0.0.1:${port}`) }, handler);
