// Next.js (App Router): the handler of every route file listed in docs/embedding.md (one per path the
// app answers). Next gives a route handler no socket address; on Vercel the edge sets X-Real-IP, so read
// it only when deployed behind that edge. The app links to PUBLIC_BASE_URL, else the local dev server.
import { createFetchHandler } from 'converter-site-api/fetch';
import { createSiteApp } from './site.ts';

const publicBaseUrl = process.env['PUBLIC_BASE_URL'] ?? `http://localhost:${process.env['PORT'] ?? 3000}`;
const handler = createSiteApp(publicBaseUrl).then((app) => createFetchHandler(app));
const handle = async (request: Request) => (await handler)(request, request.headers.get('x-real-ip') ?? '');

export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
