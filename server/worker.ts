/**
 * The Cloudflare Worker program (`wrangler dev` / `wrangler deploy`, see wrangler.toml): the API on
 * memory storage with the content of the bundled config file. Point the import at your own config file.
 *
 * @module
 */
import configFile from '../example/config.json' with { type: 'json' };
import { createSiteWorker } from './worker-app.ts';

export default createSiteWorker(configFile);
