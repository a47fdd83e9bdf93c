/**
 * The Cloudflare Worker program (`wrangler deploy`, see wrangler.toml and docs/edge.md; locally
 * `npm run start:workers`): the API with the content of the bundled config file. Point the import at
 * your own config file; `npm run start:workers` bundles the file CONFIG_FILE names instead.
 *
 * @module
 */
import configFile from '../example/config.json' with { type: 'json' };
import { createSiteWorker } from './worker-app.ts';

export default createSiteWorker(configFile);
