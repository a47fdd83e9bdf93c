// Cloudflare Workers: the default export of the Worker (bundle it with wrangler). The app is built on
// the first request of each isolate; memory storage lives as long as the isolate, within caps that fit
// its 128 MB (the standalone caps could reach ~300 MB).
import { createMemoryStorage, WORKER_MEMORY_LIMITS } from 'converter-site-api/memory';
import { createWorker } from 'converter-site-api/workers';
import { createSiteApp } from './site.ts';

export default createWorker((env: { PUBLIC_BASE_URL?: string }) =>
  createSiteApp(env.PUBLIC_BASE_URL, createMemoryStorage(WORKER_MEMORY_LIMITS)),
);
