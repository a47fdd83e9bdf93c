// Deno Deploy (or `deno serve deno-deploy.ts` locally): a default export with a fetch handler.
import { createDenoHandler } from 'converter-site-api/deno';
import { createSiteApp } from './site.ts';

export default { fetch: createDenoHandler(await createSiteApp()) } satisfies Deno.ServeDefaultExport;
