// Next.js (App Router): save as app/api/[...path]/route.ts. Next gives a route handler no socket address;
// on Vercel the edge sets X-Real-IP, so read it only when deployed behind that edge.
import { createFetchHandler } from 'converter-site-api/fetch';
import { createSiteApp } from './site.ts';

const handler = createSiteApp().then((app) => createFetchHandler(app));
const handle = async (request: Request) => (await handler)(request, request.headers.get('x-real-ip') ?? '');

export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
