// Node: the API as the whole server (node:http).
import { createServer } from 'node:http';
import { createNodeListener } from 'converter-site-api/node';
import { createSiteApp } from './site.ts';

const port = Number(process.env['PORT'] ?? 8080);
const server = createServer(createNodeListener(await createSiteApp(`http://localhost:${port}`)));
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
