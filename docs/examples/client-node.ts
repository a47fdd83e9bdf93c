// Node (or Bun): the typed client in a script. Run with BASE_URL pointing at the API.
import { ApiClientError, createClient } from 'converter-site-api/client';

const api = createClient({ baseUrl: process.env['BASE_URL'] ?? 'http://127.0.0.1:8080' });

const { version, downloadUrl } = await api.getVersion();
console.log(`latest desktop version ${version}: ${downloadUrl}`);

const { data: pricing, rateLimit } = await api.withMeta.getPricing();
console.log(`license ${pricing.licensePriceDisplay}; ${rateLimit?.remaining} of ${rateLimit?.limit} requests left`);

try {
  await api.getCheckoutStatus({ session_id: 'cs_unknown' });
} catch (error) {
  if (!(error instanceof ApiClientError)) throw error;
  console.log(`${error.status} ${error.code}: ${error.resolution}`);
}
