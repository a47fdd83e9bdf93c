// A web page: fills every element with data-price from the live offer. Bundle it for the page with
// `npx esbuild client-web.ts --bundle --format=esm --outfile=client-web.js` and load it with
// <script type="module" src="client-web.js"></script>. Only getPricing is bound, so the bundle holds
// no other method (20.6 KiB minified against 36.0 KiB for the whole client).
import { createClientFor, getPricingEndpoint } from 'converter-site-api/client';

const api = createClientFor([getPricingEndpoint], { baseUrl: location.origin });
const pricing = await api.getPricing();
document.querySelectorAll('[data-price]').forEach((element) => (element.textContent = pricing.licensePriceDisplay));
