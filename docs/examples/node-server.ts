// Node: the API as the whole server (node:http).
import { createServer } from 'node:http';
import { createNodeListener } from 'converter-site-api/node';
import { createSiteApp } from './site.ts';

const server = createServer(createNodeListener(await createSiteApp()));
server.listen(Number(process.env['PORT'] ?? 8080), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${process.env['PORT'] ?? 8080}`);
});
