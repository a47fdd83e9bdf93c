// Deno Deploy (or `deno serve deno-deploy.ts` locally): a default export with a fetch handler. The
// address the app links to comes from PUBLIC_BASE_URL (on Deno Deploy, your deployment's URL).
import { createDenoHandler } from 'converter-site-api/deno';
import { createSiteApp } from './site.ts';

export default { fetch: createDenoHandler(await createSiteApp(Deno.env.get('PUBLIC_BASE_URL'))) } satisfies Deno.ServeDefaultExport;
