// Next.js (App Router): the handler of every route file listed in docs/embedding.md (one per path the
// app answers). Next gives a route handler no socket address, so the client's comes from X-Real-IP, which
// only two set-ups make trustworthy: your own proxy that sets it (then set TRUST_X_REAL_IP=1), or Vercel,
// whose edge sets it (VERCEL=1 there). Anywhere else the header is anyone's word and no address is passed:
// every client is counted as one, and the app warns once. The app links to PUBLIC_BASE_URL, else the
// local dev server.
import { createFetchHandler } from 'converter-site-api/fetch';
import { createSiteApp } from './site';

const publicBaseUrl = process.env['PUBLIC_BASE_URL'] ?? `http://localhost:${process.env['PORT'] ?? 3000}`;
const trustRealIp = process.env['VERCEL'] === '1' || process.env['TRUST_X_REAL_IP'] === '1';
const handler = createSiteApp(publicBaseUrl).then((app) => createFetchHandler(app));
const handle = async (request: Request) => (await handler)(request, (trustRealIp && request.headers.get('x-real-ip')) || '');

export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
