/**
 * GET /llms.txt: the llmstxt.org shape, the exact text, and links to every endpoint, /openapi.json and the docs.
 */
import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { API_ROUTES, OPERATOR_TAG, V1_PREFIX } from '../core/api.ts';
import { withValidation } from './_openapi.ts';
import { startInProcessServer } from './_in-process.ts';

/** GET /llms.txt from a fresh server with these options; the answer is validated against /openapi.json. */
async function llmsTxt(overrides: Parameters<typeof startInProcessServer>[0] = {}) {
  const server = await withValidation(await startInProcessServer(overrides));
  try {
    return await server.request({ path: '/llms.txt' });
  } finally {
    await server.close();
  }
}

/**
 * The llmstxt.org shape: an H1 first, then a `>` summary, free text, and `##` sections whose items are
 * `- [name](url): note` links.
 *
 * @returns Every link URL.
 */
function shapeLinks(text: string): string[] {
  const lines = text.split('\n');
  assert.match(lines[0]!, /^# \S/);
  assert.is(lines[1], '');
  assert.match(lines[2]!, /^> \S/);
  assert.is(lines.filter((line) => line.startsWith('# ')).length, 1, 'one H1');
  const firstSection = lines.findIndex((line) => line.startsWith('## '));
  assert.ok(firstSection > 2);
  const links: string[] = [];
  for (const line of lines.slice(firstSection)) {
    if (!line.startsWith('- ')) continue;
    const link = /^- \[([^\]]+)\]\((https?:\/\/[^)\s]+)\): \S.*$/.exec(line);
    assert.ok(link, `not a "- [name](url): note" line: ${line}`);
    links.push(link[2]!);
  }
  return links;
}

const INTRO = `> The public website API of Legacy Sheet Converter, a Windows desktop app that converts legacy spreadsheets
> (.123, .wk1, .wk3, .wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS. The conversion runs
> locally on the user's Windows PC.

This API serves the product website and the desktop app: the live offer, the installer download, update
checks, feedback, the public roadmap and checkout status. It does NOT accept spreadsheet uploads and there
is NO conversion API: files are never sent to a server. There is no OAuth, GraphQL or MCP interface, and no
public endpoint requires credentials (the operator endpoints under Optional are the notifications signed
by the payment provider and the load-balancer probes). Each client IP has a request quota (120 requests
per 60 seconds by default); every response carries RateLimit headers and a 429 carries Retry-After
(the probes, and the update files' 200, 304 and 302, are outside the quota). Errors are JSON objects
{code, message, resolution}.`;

/** The operator-facing endpoints, listed under Optional: a visitor's or an app's agent never calls them. */
const operatorEndpoint = (base: string) =>
  `- [POST /api/v1/webhooks/gateway](${base}/api/v1/webhooks/gateway): Receive a payment provider notification (operator-facing). JSON body: GatewayEvent. Header: Stripe-Signature.
- [GET /healthz](${base}/healthz): Liveness probe (operator-facing).
- [GET /readyz](${base}/readyz): Readiness probe (operator-facing).`;

/** The endpoint list at a base address. */
const endpoints = (base: string) =>
  `## Endpoints

- [GET /api/v1/pricing](${base}/api/v1/pricing): Get the live offer.
- [GET /api/v1/download](${base}/api/v1/download): Redirect to the Windows installer. Query: source (optional), force (optional).
- [GET /api/v1/version](${base}/api/v1/version): Get the latest desktop version.
- [POST /api/v1/installs](${base}/api/v1/installs): Say once a day which version an app on the update files runs. An addition to the spec. JSON body: InstallPingRequest.
- [POST /api/v1/feedback](${base}/api/v1/feedback): Submit feedback or a review. JSON body: FeedbackRequest.
- [GET /api/v1/roadmap](${base}/api/v1/roadmap): List the public roadmap.
- [POST /api/v1/roadmap](${base}/api/v1/roadmap): Toggle the caller vote for a feature. JSON body: VoteRequest.
- [POST /api/v1/checkout/create](${base}/api/v1/checkout/create): Create a hosted checkout session. JSON body: CheckoutCreateRequest (optional).
- [GET /api/v1/checkout/status](${base}/api/v1/checkout/status): Get the payment and license status of a checkout session. Query: session_id.
- [POST /api/v1/licenses/validate](${base}/api/v1/licenses/validate): Re-check the standing of a license key. An addition to the spec. JSON body: LicenseValidateRequest.
- [POST /api/v1/licenses/resend](${base}/api/v1/licenses/resend): Mail the license keys of an address to that address. An addition to the spec. JSON body: LicenseResendRequest.
- [GET /api/v1/changelog](${base}/api/v1/changelog): Get the changelog as a JSON Feed. An addition to the spec. Query: since (optional), before (optional), installed (optional). Header: If-None-Match, If-Modified-Since.
- [GET /api/v1/changelog.atom](${base}/api/v1/changelog.atom): Get the changelog as an Atom feed. An addition to the spec. Query: since (optional), before (optional), installed (optional). Header: If-None-Match, If-Modified-Since.
- [POST /api/v1/unsubscribe](${base}/api/v1/unsubscribe): Stop the shipped-request mails to an address (one click). An addition to the spec. Query: token.
- [GET /api/v1/unsubscribe](${base}/api/v1/unsubscribe): The page of an unsubscribe address, with its button. An addition to the spec. Query: token.
- [GET /updates/{channel}/{file}](${base}/updates/{channel}/{file}): Get an update file (TUF 1.0 metadata). An addition to the spec. Path: channel, file. Header: If-None-Match.
- [GET /updates/{channel}/targets/{file}](${base}/updates/{channel}/targets/{file}): Redirect to an update target's installer. An addition to the spec. Path: channel, file.
- [GET /llms.txt](${base}/llms.txt): Get the plain-text summary for automated agents.
- [GET /openapi.json](${base}/openapi.json): Get the OpenAPI description of this API.`;

test('GET /llms.txt answers the exact summary as text/plain; charset=utf-8', async () => {
  const response = await llmsTxt();
  assert.is(response.status, 200);
  assert.is(response.headers['content-type'], 'text/plain; charset=utf-8');
  assert.is(
    response.text,
    `# Legacy Sheet Converter website API

${INTRO}

${endpoints('http://localhost:8080')}

Each /api/v1 path also answers at the unversioned /api path (a compatibility alias); prefer /api/v1.

The update files under /updates/{channel}/ (additions to the spec) are TUF 1.0 metadata for HTTP caches, which the
desktop app verifies and chooses its release from: no /api alias; their 200, 304 and 302 answers carry no RateLimit
headers (a cache hands them to everyone) and name the channel in Cache-Tag and Surrogate-Key (updates:<channel>, the tag
a purge drops once new files are stored), their 400 and 404 answers are metered like every error.

## Docs

- [OpenAPI description](http://localhost:8080/openapi.json): OpenAPI 3.1 reference of every endpoint, schema, error code and header.

## Optional

${operatorEndpoint('http://localhost:8080')}
`,
  );
});

test('with a docs address, the docs are linked; deprecated aliases give their sunset date', async () => {
  const docs = 'https://git.sheets.test/converter-site-api/src/branch/main/docs';
  const response = await llmsTxt({
    publicBaseUrl: 'https://api.sheets.test/',
    docsUrl: `${docs}/`,
    aliasDeprecation: { deprecatedAt: Date.UTC(2026, 0, 1), sunsetAt: Date.UTC(2027, 0, 1) },
  });
  assert.is(
    response.text,
    `# Legacy Sheet Converter website API

${INTRO}

${endpoints('https://api.sheets.test')}

Each /api/v1 path also answers at the unversioned /api path (a compatibility alias); prefer /api/v1. The aliases are deprecated and stop answering after 2027-01-01.

The update files under /updates/{channel}/ (additions to the spec) are TUF 1.0 metadata for HTTP caches, which the
desktop app verifies and chooses its release from: no /api alias; their 200, 304 and 302 answers carry no RateLimit
headers (a cache hands them to everyone) and name the channel in Cache-Tag and Surrogate-Key (updates:<channel>, the tag
a purge drops once new files are stored), their 400 and 404 answers are metered like every error.

## Docs

- [OpenAPI description](https://api.sheets.test/openapi.json): OpenAPI 3.1 reference of every endpoint, schema, error code and header.
- [The documents](${docs}/README.md): A path through these documents for each reader: website developer, embedder, self-hoster, vendor, spec tester.
- [Client](${docs}/client.md): The typed TypeScript client for web pages, Node, Deno, Bun and Workers.
- [Errors](${docs}/errors.md): Every error code, its status and when it happens.
- [Rate limiting](${docs}/rate-limiting.md): The quota, the algorithm, the headers and how client IPs are told apart.
- [Decisions](${docs}/decisions.md): What the service does where the public contract is silent.
- [License keys](${docs}/licensing.md): The license key format and how the desktop app verifies a key offline.
- [Signed update answers](${docs}/updates.md): The RFC 9421 signatures of GET /version and GET /download, the update files (TUF 1.0), and how the desktop app checks them.
- [Conformance](${docs}/conformance.md): The conformance kit: check an implementation of the spec clause by clause; test vectors for clients.

## Optional

${operatorEndpoint('https://api.sheets.test')}
- [Configuration](${docs}/configuration.md): The config file, the environment and the payment simulator.
- [Deployment](${docs}/deploy.md): One machine on the embedded PGlite database, or several instances on one Postgres.
- [Edge deployment](${docs}/edge.md): The Cloudflare Worker on Postgres through Hyperdrive, and running it locally under workerd.
- [Architecture](${docs}/architecture.md): The pure core, its ports and adapters, and how a request flows.
- [Payments](${docs}/payments.md): The payment simulator and Stripe Checkout: setup, notifications, provider failures.
- [Embedding](${docs}/embedding.md): The core inside Node, Express, Fastify, Deno, Bun, Cloudflare Workers or Next.js.
- [Your own storage](${docs}/storage.md): The Storage types to implement, and the storage conformance suite to run against an implementation.
- [API report](${docs}/api-report.md): Every name each entry point of the npm package exports, with its kind.
- [Performance](${docs}/performance.md): Throughput against a bare node:http ceiling, and how to measure it.
- [Observability](${docs}/observability.md): Probes, request ids, JSON logs, the access log and Prometheus metrics.
- [Operating](${docs}/operating.md): The operator API on its own listener: releases, the audit trail, the release command.
- [Releases](${docs}/releases.md): Staged rollout: which release each client gets, and how fast a change is served.
- [Mail](${docs}/mail.md): Keys mailed to buyers over SMTP: the outbox, retries, texts, and what happens without SMTP_URL.
`,
  );
});

test('both variants have the llmstxt.org shape and link every endpoint, /openapi.json and every doc', async () => {
  const docs = 'https://git.sheets.test/docs';
  for (const overrides of [{}, { docsUrl: docs }]) {
    const text = (await llmsTxt(overrides)).text;
    const links = shapeLinks(text);
    for (const route of API_ROUTES) assert.ok(links.includes(`http://localhost:8080${V1_PREFIX}${route.path}`), route.path);
    const optional = text.slice(text.indexOf('\n## Optional\n'));
    for (const route of API_ROUTES) {
      const listed = optional.includes(`(http://localhost:8080${V1_PREFIX}${route.path})`);
      assert.is(listed, route.tag === OPERATOR_TAG, `${route.path} is under Optional only if operator-facing`);
    }
    assert.ok(links.includes('http://localhost:8080/openapi.json'));
    assert.ok(links.includes('http://localhost:8080/llms.txt'));
    const docLinks = links.filter((url) => url.startsWith(`${docs}/`));
    const docFiles = readdirSync(new URL('../docs/', import.meta.url)).filter((file) => file.endsWith('.md'));
    const linked = docLinks.map((link) => link.slice(docs.length + 1));
    assert.equal(linked.sort(), 'docsUrl' in overrides ? docFiles.sort() : [], 'every document of docs/ is linked');
    assert.match(text, 'It does NOT accept spreadsheet uploads and there\nis NO conversion API');
  }
});

test.run();
