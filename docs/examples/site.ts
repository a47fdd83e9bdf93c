// The app every example serves: your content, memory storage and the payment simulator. Swap in your own
// storage and gateway when they exist. Content read from a file is checked with
// `v.parse(SiteContentSchema, data)` (valibot); the fields are those of the config file (docs/configuration.md).
import { createApp, type App, type SiteContent } from 'converter-site-api';
import { createMemoryStorage } from 'converter-site-api/memory';
import { createSimulatorGateway } from 'converter-site-api/simulator';

const content: SiteContent = {
  offer: {
    product: 'legacy-sheet-converter',
    productDisplayName: 'Legacy Sheet Converter',
    currency: 'USD',
    licensePrice: '49.00',
    licensePriceDisplay: '$49',
    gatewayPaymentLink: 'https://pay.example.com/b/standard',
    trialFileLimit: 5,
  },
  download: {
    msiUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
  },
  roadmap: [
    { id: 1, title: 'Quattro Pro input', description: 'Open .wb1, .wb2 and .qpw files.', category: 'formats', visible: true, release_version: null },
    { id: 2, title: 'Keep cell formulas in XLSX', description: 'Write formulas, not values.', category: 'conversion', visible: true, release_version: '2.5.0' },
  ],
};

/**
 * The app, linking to itself (checkout pages, discovery documents) at `publicBaseUrl`: pass the address
 * your server is reached at, e.g. `http://localhost:${port}`.
 */
export async function createSiteApp(publicBaseUrl = 'http://localhost:8080', storage = createMemoryStorage()): Promise<App> {
  return createApp({
    content,
    version: { current: () => '2.4.1' },
    storage,
    // With `returnTo: { successUrl, cancelUrl }` Pay and Cancel send the buyer back to your pages.
    gateway: createSimulatorGateway({ storage, publicBaseUrl, offer: content.offer }),
    publicBaseUrl,
  });
}
