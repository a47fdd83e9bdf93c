// Hono on Node (@hono/node-server): the API mounted in an existing app through the web-standard fetch
// handler. The middleware hands the raw Request, body unread, to the API for exactly the paths it
// answers, with the socket's peer address from getConnInfo (never a header the client can set).
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { isAppPath } from 'converter-site-api';
import { createFetchHandler } from 'converter-site-api/fetch';
import { createSiteApp } from './site.ts';

const port = Number(process.env['PORT'] ?? 8080);
const api = createFetchHandler(await createSiteApp(`http://localhost:${port}`));
const app = new Hono();
app.use(async (c, next) => {
  if (!isAppPath(c.req.path)) return next();
  const peer = getConnInfo(c).remote.address;
  if (peer === undefined) throw new Error('no peer address: run this under @hono/node-server');
  return api(c.req.raw, peer);
});
app.get('/', (c) => c.text('the rest of your site'));

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => console.log(`listening on http://127.0.0.1:${port}`));
