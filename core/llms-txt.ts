/**
 * The llms.txt summary (llmstxt.org): an H1, a quoted summary, and sections of links.
 *
 * @module
 */
import { V1_PREFIX, type ApiRoute } from './api.ts';
import type { AppContext } from './context.ts';

/**
 * Builds the text.
 *
 * @param routes The public operations.
 * @param context For the product name and the public address.
 */
export function buildLlmsTxt(routes: readonly ApiRoute[], context: AppContext): string {
  const base = context.publicBaseUrl;
  const name = context.content.offer.productDisplayName;
  const endpoints = routes.map(
    (route) => `- [${route.method} ${V1_PREFIX}${route.path}](${base}${V1_PREFIX}${route.path}): ${route.summary}.`,
  );
  return [
    `# ${name} website API`,
    '',
    `> The public website API of ${name}, a Windows desktop app that converts legacy spreadsheets`,
    '> (.123, .wk1, .wk3, .wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS. The conversion runs',
    '> locally on the user\'s Windows PC.',
    '',
    'This API serves the product website and the desktop app: the live offer, the installer download, update',
    'checks, feedback, the public roadmap and checkout status. It does NOT accept spreadsheet uploads and there',
    'is NO conversion API: files are never sent to a server. There is no OAuth, GraphQL or MCP interface, and no',
    'endpoint requires credentials. Every client IP may make 120 requests per 60 seconds; every response',
    'carries RateLimit headers and a 429 carries Retry-After.',
    '',
    '## Endpoints',
    '',
    ...endpoints,
    '',
    'Each /api/v1 path also answers at the unversioned /api path (a compatibility alias); prefer /api/v1.',
    '',
    '## Developer resources',
    '',
    `- [OpenAPI description](${base}/openapi.json): OpenAPI 3.1, every endpoint, schema and error code.`,
    `- [This summary](${base}/llms.txt): plain text for automated agents.`,
    '',
    '## Optional',
    '',
    `- [Download the Windows installer](${base}${V1_PREFIX}/download): redirects to the current MSI.`,
    '',
  ].join('\n');
}
