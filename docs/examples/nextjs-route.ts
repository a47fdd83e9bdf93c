// Next.js (App Router): the handler of every route file listed in docs/embedding.md (one per path the
// app answers). Next gives a route handler no socket address. On Vercel its edge sets X-Real-IP (VERCEL=1
// there); self-hosted with `next start`, only a proxy of yours can say who the client is: set
// TRUST_X_REAL_IP=1 once it sets X-Real-IP. Otherwise the header is anyone's word, so every client is
// counted as one. The app links to PUBLIC_BASE_URL, else the local dev server.
import { createFetchHandler } from 'converter-site-api/fetch';
import { createSiteApp } from './site';

const publicBaseUrl = process.env['PUBLIC_BASE_URL'] ?? `http://localhost:${process.env['PORT'] ?? 3000}`;
const trustRealIp = process.env['VERCEL'] === '1' || process.env['TRUST_X_REAL_IP'] === '1';
const handler = createSiteApp(publicBaseUrl).then((app) => createFetchHandler(app));
const handle = async (request: Request) => (await handler)(request, (trustRealIp && request.headers.get('x-real-ip')) || '');

export { handle as GET, handle as POST, handle as HEAD, handle as OPTIONS };
