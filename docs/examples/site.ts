// The app every example serves: your content (shape: example/config.json), memory storage and the
// payment simulator. Swap in your own storage and gateway when they exist.
import * as v from 'valibot';
import { createApp, SiteContentSchema, type App } from 'converter-site-api';
import { createMemoryStorage } from 'converter-site-api/memory';
import { createSimulatorGateway } from 'converter-site-api/simulator';
import config from '../../example/config.json' with { type: 'json' };

export async function createSiteApp(publicBaseUrl = 'http://localhost:8080'): Promise<App> {
  const storage = createMemoryStorage();
  return createApp({
    content: v.parse(SiteContentSchema, { offer: config.offer, download: config.download, roadmap: config.roadmap }),
    version: { current: () => '2.4.1' },
    storage,
    gateway: createSimulatorGateway({ storage, publicBaseUrl }),
    publicBaseUrl,
  });
}
