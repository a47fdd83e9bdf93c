/**
 * The llms.txt summary (llmstxt.org): an H1, a quoted summary, and `##` sections of `- [name](url): note`
 * links to every endpoint, to /openapi.json and to the docs.
 *
 * @module
 */
import { OPERATOR_TAG, V1_PREFIX } from './endpoint.ts';
import type { ApiRoute } from './api-route.ts';
import type { AppContext } from './context.ts';

/** The documents of the repository's docs/ folder, in the order a client of the API needs them. */
const CLIENT_DOCS = [
  ['The documents', 'README.md', 'A path through these documents for each reader: website developer, embedder, self-hoster, vendor, spec tester'],
  ['Client', 'client.md', 'The typed TypeScript client for web pages, Node, Deno, Bun and Workers'],
  ['Errors', 'errors.md', 'Every error code, its status and when it happens'],
  ['Rate limiting', 'rate-limiting.md', 'The quota, the algorithm, the headers and how client IPs are told apart'],
  ['Decisions', 'decisions.md', 'What the service does where the public contract is silent'],
  ['License keys', 'licensing.md', 'The license key format and how the desktop app verifies a key offline'],
  [
    'Signed update answers',
    'updates.md',
    'The RFC 9421 signatures of GET /version and GET /download, the update files (TUF 1.0), and how the desktop app checks them',
  ],
  ['Conformance', 'conformance.md', 'The conformance kit: check an implementation of the spec clause by clause; test vectors for clients'],
] as const;
/** The documents for someone running their own copy. */
const OPERATOR_DOCS = [
  ['Configuration', 'configuration.md', 'The config file, the environment and the payment simulator'],
  ['Deployment', 'deploy.md', 'One machine on the embedded PGlite database, or several instances on one Postgres'],
  ['Edge deployment', 'edge.md', 'The Cloudflare Worker on Postgres through Hyperdrive, and running it locally under workerd'],
  ['Architecture', 'architecture.md', 'The pure core, its ports and adapters, and how a request flows'],
  ['Payments', 'payments.md', 'The payment simulator and Stripe Checkout: setup, notifications, provider failures'],
  ['Embedding', 'embedding.md', 'The core inside Node, Express, Fastify, Deno, Bun, Cloudflare Workers or Next.js'],
  ['Your own storage', 'storage.md', 'The Storage types to implement, and the storage conformance suite to run against an implementation'],
  ['API report', 'api-report.md', 'Every name each entry point of the npm package exports, with its kind'],
  ['Performance', 'performance.md', 'Throughput against a bare node:http ceiling, and how to measure it'],
  ['Observability', 'observability.md', 'Probes, request ids, JSON logs, the access log and Prometheus metrics'],
  ['Operating', 'operating.md', 'The operator API on its own listener: releases, the audit trail, the release command'],
  ['Releases', 'releases.md', 'Staged rollout: which release each client gets, and how fast a change is served'],
  ['Mail', 'mail.md', 'Keys mailed to buyers over SMTP: the outbox, retries, texts, and what happens without SMTP_URL'],
] as const;

/** How an endpoint beyond the spec's description starts (docs/architecture.md "Adding an operation"). */
const ADDITION = 'An addition to the spec.';

const OPENAPI_NOTE = 'OpenAPI 3.1 reference of every endpoint, schema, error code and header.';

function endpointLine(route: ApiRoute, base: string): string {
  const path = route.versioned ? V1_PREFIX + route.path : route.path;
  const input = route.body
    ? ` JSON body: ${route.body.schemaName}${route.body.required ? '' : ' (optional)'}.`
    : route.query
    ? ` Query: ${route.query.map((param) => param.name + (param.required ? '' : ' (optional)')).join(', ')}.`
    : '';
  const headers = route.headers ? ` Header: ${route.headers.map((param) => param.name).join(', ')}.` : '';
  const segments = route.pathParameters ? ` Path: ${route.pathParameters.map((param) => param.name).join(', ')}.` : '';
  // An endpoint beyond the spec says so, as its description in /openapi.json does first.
  const addition = route.description.startsWith(ADDITION) ? ` ${ADDITION}` : '';
  return `- [${route.method} ${path}](${base}${path}): ${route.summary}.${addition}${segments}${input}${headers}`;
}

function docLines(docsUrl: string, docs: readonly (readonly [string, string, string])[]): string[] {
  return docs.map(([name, file, note]) => `- [${name}](${docsUrl}/${file}): ${note}.`);
}

/**
 * Builds the text.
 *
 * The docs/ documents are linked only when the operator gives `docsUrl`, the address where the repository's
 * docs/ folder is published: this server does not serve them, and a relative link would resolve to a 404 here.
 * The API's own reference, /openapi.json, is always linked.
 *
 * Operator-facing routes (the payment provider's notifications) are listed under "Optional", the section
 * llmstxt.org says a reader may skip: every route stays linked, but an agent acting for a website visitor
 * or a desktop user is not pointed at an endpoint it can never call.
 *
 * @param routes Every public route, the discovery documents included.
 * @param context For the product name, the public address, the docs address and the alias deprecation.
 * @returns The llms.txt body.
 */
export function buildLlmsTxt(routes: readonly ApiRoute[], context: AppContext): string {
  const base = context.publicBaseUrl;
  const name = context.content.offer.productDisplayName;
  const deprecation = context.aliasDeprecation;
  const sunset = deprecation ? new Date(deprecation.sunsetAt).toISOString().slice(0, 10) : null;
  const docsUrl = context.docsUrl;
  const publicRoutes = routes.filter((route) => route.tag !== OPERATOR_TAG);
  const operatorRoutes = routes.filter((route) => route.tag === OPERATOR_TAG);
  return [
    `# ${name} website API`,
    '',
    `> The public website API of ${name}, a Windows desktop app that converts legacy spreadsheets`,
    '> (.123, .wk1, .wk3, .wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS. The conversion runs',
    "> locally on the user's Windows PC.",
    '',
    'This API serves the product website and the desktop app: the live offer, the installer download, update',
    'checks, feedback, the public roadmap and checkout status. It does NOT accept spreadsheet uploads and there',
    'is NO conversion API: files are never sent to a server. There is no OAuth, GraphQL or MCP interface, and no',
    'public endpoint requires credentials (the operator endpoints under Optional are the notifications signed',
    'by the payment provider and the load-balancer probes). Each client IP has a request quota (120 requests',
    'per 60 seconds by default); every response carries RateLimit headers and a 429 carries Retry-After',
    "(the probes, and the update files' 200, 304 and 302, are outside the quota). Errors are JSON objects",
    '{code, message, resolution}.',
    '',
    '## Endpoints',
    '',
    ...publicRoutes.map((route) => endpointLine(route, base)),
    '',
    'Each /api/v1 path also answers at the unversioned /api path (a compatibility alias); prefer /api/v1.' +
    (sunset ? ` The aliases are deprecated and stop answering after ${sunset}.` : ''),
    '',
    'The update files under /updates/{channel}/ (additions to the spec) are TUF 1.0 metadata for HTTP caches, which the',
    'desktop app verifies and chooses its release from: no /api alias; their 200, 304 and 302 answers carry no RateLimit',
    'headers (a cache hands them to everyone) and name the channel in Cache-Tag and Surrogate-Key (updates:<channel>, the tag',
    'a purge drops once new files are stored), their 400 and 404 answers are metered like every error.',
    '',
    '## Docs',
    '',
    `- [OpenAPI description](${base}/openapi.json): ${OPENAPI_NOTE}`,
    ...(docsUrl ? docLines(docsUrl, CLIENT_DOCS) : []),
    '',
    '## Optional',
    '',
    ...operatorRoutes.map((route) => endpointLine(route, base)),
    ...(docsUrl ? docLines(docsUrl, OPERATOR_DOCS) : []),
    '',
  ].join('\n');
}
