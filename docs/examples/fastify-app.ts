// Fastify: the API mounted in an existing app. The onRequest hook runs before Fastify parses the
// body, and hijack() hands the raw request and response to the API for exactly the paths it answers.
import Fastify from 'fastify';
import { isAppPath } from 'converter-site-api';
import { createNodeListener } from 'converter-site-api/node';
import { createSiteApp } from './site.ts';

const port = Number(process.env['PORT'] ?? 8080);
const api = createNodeListener(await createSiteApp(`http://localhost:${port}`));
const app = Fastify();
app.addHook('onRequest', (request, reply, done) => {
  if (!isAppPath(request.url.split('?', 1)[0]!)) return done();
  reply.hijack();
  api(request.raw, reply.raw);
});
app.get('/', async () => 'the rest of your site');

await app.listen({ port, host: '127.0.0.1' });
console.log(`listening on http://127.0.0.1:${port}`);
