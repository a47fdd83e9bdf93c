/**
 * Every statement of the public API spec (shared/spec/public-api.md) that a conformance kit could be asked
 * about, by a stable clause id: "<section>.<rule or table row>". The testable ones are covered by checks;
 * the others say why no black-box test can check them. docs/conformance.md is generated from this list.
 *
 * @module
 */

/** One statement of the spec. */
export interface Clause {
  id: string;
  /** The statement, as the spec says it (shortened). */
  statement: string;
  /** Why no black-box check covers it; absent for testable statements. */
  untestable?: string;
}

const NOT_SHOWN = 'the spec says "not shown": any answer conforms';

export const CLAUSES: readonly Clause[] = [
  { id: 'service.json-bodies', statement: 'Response bodies are JSON (application/json) unless stated otherwise.' },
  { id: 'service.no-uploads', statement: 'The HTTP endpoints do not accept spreadsheet file uploads.' },
  { id: 'service.no-remote-surfaces', statement: 'There is no remote conversion API, no OAuth surface, no GraphQL API and no MCP server.' },
  {
    id: 'service.not-a-cloud-converter',
    statement: 'The endpoints must not be used as a cloud conversion service.',
    untestable: 'a rule for callers, not an answer of the service',
  },
  {
    id: 'service.formats',
    statement: 'Inputs and outputs of the desktop product; the conversion runs locally on Windows.',
    untestable: 'describes the desktop product, which the API does not expose',
  },
  { id: 'error-object.fields', statement: 'An error has code, message and resolution, all strings, all required.' },
  { id: 'error-object.closed', statement: 'No other fields are allowed in an error.' },
  { id: 'pricing.fields', statement: 'Pricing payload: the required fields and the types of the optional ones (links are URIs, trialFileLimit an integer).' },
  { id: 'pricing.currency', statement: 'currency is the constant "USD".' },
  {
    id: 'pricing.product-constant',
    statement: 'product is a fixed neutral constant.',
    untestable: 'its value is not given, and one answer cannot show it never changes',
  },
  { id: 'pricing.price-format', statement: 'Price string format.', untestable: NOT_SHOWN },
  { id: 'version.fields', statement: 'Version payload: version (string) and downloadUrl (URI), required.' },
  { id: 'version.closed', statement: 'Version payload: no other fields allowed.' },
  { id: 'version.source', statement: "version is taken from the product's version file.", untestable: 'the version file is not visible through the API' },
  { id: 'feedback-request.description', statement: 'description is required, a string of minimum length 1.' },
  { id: 'feedback-request.type', statement: 'type is one of feature_request, bug_report, general, review.' },
  { id: 'feedback-request.email', statement: 'email is a string in email format.' },
  { id: 'feedback-request.appVersion', statement: 'appVersion is an optional string.' },
  { id: 'feedback-request.rating', statement: 'rating is an integer from 1 to 5 inclusive.' },
  { id: 'feedback-success.body', statement: 'Feedback success is {success: true}, no other fields.' },
  {
    id: 'roadmap-feature.fields',
    statement: 'Roadmap feature: id, title, description, category, vote_count, voted required with their types; release_version string or null.',
  },
  { id: 'roadmap-feature.category', statement: 'Allowed values of category.', untestable: NOT_SHOWN },
  { id: 'roadmap-list.closed', statement: 'Roadmap list response: features (array of Roadmap feature), no other fields.' },
  { id: 'roadmap-vote-request.featureId', statement: 'featureId is a required integer, minimum 1.' },
  { id: 'roadmap-vote-request.closed', statement: 'Roadmap vote request: no other fields.' },
  { id: 'roadmap-vote-response.fields', statement: 'Roadmap vote response: voted and vote_count after the toggle, no other fields.' },
  { id: 'checkout-create-request.optional', statement: 'The whole checkout create body is optional.' },
  { id: 'checkout-create-request.values', statement: 'product is one of standard, plus_addon, plus_bundle; channel one of store, msi.' },
  {
    id: 'checkout-create-request.closed',
    statement: 'Checkout create request: no other fields are allowed.',
    untestable: 'the endpoint lists no 400, so what an unknown field answers is not stated',
  },
  { id: 'checkout-create-response.fields', statement: 'Checkout create response: sessionId (string) and url (URI), no other fields.' },
  { id: 'checkout-status.fields', statement: 'Checkout status response: status required; licenseKey, standardLicenseKey, plusLicenseKey string or null.' },
  { id: 'states.checkout-status', statement: 'The checkout status takes the values pending, processing and paid.' },
  { id: 'states.transitions', statement: 'Transitions of the checkout status.', untestable: NOT_SHOWN },
  { id: 'endpoints.rate-limit-headers', statement: 'Every response, including errors, carries the rate-limit headers listed under Limits.' },
  { id: 'endpoints.aliases', statement: 'Each /api/v1 path has an unversioned /api alias with the same method and behavior.' },
  { id: 'endpoints.get-pricing', statement: 'GET /api/v1/pricing: 200, Pricing payload; errors 429, 500.' },
  { id: 'endpoints.get-download', statement: 'GET /api/v1/download: query source (optional), force (only value 1); 302 with Location (URI); errors 400, 429.' },
  { id: 'endpoints.get-version', statement: 'GET /api/v1/version: 200, Version payload; errors 429.' },
  { id: 'endpoints.post-feedback', statement: 'POST /api/v1/feedback: required JSON body; 201, Feedback success; errors 400, 429, 500.' },
  { id: 'endpoints.get-roadmap', statement: 'GET /api/v1/roadmap: 200, Roadmap list response; errors 429, 500.' },
  { id: 'endpoints.post-roadmap', statement: 'POST /api/v1/roadmap: required JSON body; 200, Roadmap vote response; errors 400, 404, 429, 500.' },
  { id: 'endpoints.post-checkout-create', statement: 'POST /api/v1/checkout/create: optional JSON body; 200, Checkout create response; errors 429, 500.' },
  { id: 'endpoints.get-checkout-status', statement: 'GET /api/v1/checkout/status: session_id required; 200, Checkout status response; errors 400, 429, 500.' },
  { id: 'endpoints.get-llms-txt', statement: 'GET /llms.txt: 200, text/plain body; errors 429.' },
  { id: 'endpoints.get-openapi-json', statement: 'GET /openapi.json: 200, JSON object, an OpenAPI 3.1 description of these public endpoints; errors 429.' },
  { id: 'endpoints.discovery-unversioned', statement: 'The discovery paths /llms.txt and /openapi.json have no versioned form.' },
  { id: 'endpoints.server-errors', statement: 'The 500 answers listed per endpoint.', untestable: 'no request a spec tester may send is meant to cause one' },
  { id: 'rules.1', statement: 'GET pricing returns the live offer: prices, payment links and trial limit.' },
  {
    id: 'rules.2',
    statement:
      'GET download redirects to the MSI; a client that is not Windows goes to a Windows-only warning page, unless force=1; source is an analytics label.',
  },
  { id: 'rules.2.bad-request', statement: 'Condition for 400 on download.', untestable: NOT_SHOWN },
  {
    id: 'rules.2.windows-client',
    statement: 'What makes a client a Windows client.',
    untestable: 'not stated; the kit sends a Windows and a macOS User-Agent and Sec-CH-UA-Platform, as browsers do',
  },
  { id: 'rules.3', statement: 'GET version returns the latest desktop version and the MSI download URL.' },
  {
    id: 'rules.4',
    statement: 'POST feedback accepts feature requests, bug reports, general feedback and reviews; only description is required; 201 {success: true}.',
  },
  { id: 'rules.5', statement: 'GET roadmap lists only visible features; voted reflects whether the caller IP has voted.' },
  { id: 'rules.5.visible-only', statement: 'Hidden features are not listed.', untestable: 'which features are hidden is not visible through the API' },
  {
    id: 'rules.6',
    statement: "POST roadmap toggles the caller IP's vote: first sets voted true, a repeat removes it; a feature that does not exist or is not visible is 404.",
  },
  {
    id: 'rules.7',
    statement: 'POST checkout/create creates a hosted checkout session for standard, Plus add-on or Plus bundle and returns sessionId and url.',
  },
  { id: 'rules.7.defaults', statement: 'Default product and channel when the body is omitted.', untestable: NOT_SHOWN },
  { id: 'rules.8', statement: 'GET checkout/status returns the payment status and any issued license keys after payment; session_id is required.' },
  {
    id: 'rules.8.unknown-session',
    statement:
      'GET checkout/status reads a checkout session: a session_id no session has gets an error of the endpoint (400) or of the error table (404), never a status.',
  },
  { id: 'rules.9', statement: 'GET llms.txt returns a plain-text product summary for automated agents.' },
  {
    id: 'rules.9.contents',
    statement: 'llms.txt includes developer resources.',
    untestable: 'what counts as a developer resource in free text is not defined',
  },
  { id: 'authentication.no-credentials', statement: 'No security scheme, API key, token or credential requirement is declared for any endpoint.' },
  { id: 'authentication.per-ip', statement: 'Limits are applied per client IP address.' },
  { id: 'authentication.checks', statement: 'Whether any endpoint checks credentials.', untestable: NOT_SHOWN },
  { id: 'events', statement: 'Webhooks, callbacks or other emitted events.', untestable: NOT_SHOWN },
  { id: 'errors.json', statement: 'Every error response is JSON of the error object.' },
  {
    id: 'errors.not_found',
    statement: 'not_found, 404: no API endpoint at the path; the message names the path, the resolution points to the interface description.',
  },
  { id: 'errors.rate_limited', statement: 'rate_limited, 429: the public rate limit is exceeded.' },
  {
    id: 'errors.description_required',
    statement: 'description_required, 400: presumably the feedback description is missing (the kit reads it so when strict).',
  },
  { id: 'errors.retry-after', statement: 'A 429 response additionally carries Retry-After (integer seconds).' },
  { id: 'errors.codes', statement: 'Full list of error codes and their statuses.', untestable: NOT_SHOWN },
  { id: 'limits.quota', statement: '120 requests per client IP per 60 seconds.' },
  { id: 'limits.feedback-rating', statement: 'feedback.rating: integer 1 to 5.' },
  { id: 'limits.feedback-description', statement: 'feedback.description: minimum length 1.' },
  { id: 'limits.featureId', statement: 'roadmap featureId: integer, minimum 1.' },
  { id: 'limits.RateLimit', statement: 'RateLimit: "public-api";r=<remaining>;t=<seconds>.' },
  { id: 'limits.RateLimit-Policy', statement: 'RateLimit-Policy: "public-api";q=120;w=60.' },
  { id: 'limits.RateLimit-Limit', statement: 'RateLimit-Limit: integer, the maximum requests in the window.' },
  { id: 'limits.RateLimit-Remaining', statement: 'RateLimit-Remaining: integer, requests remaining in the window.' },
  { id: 'limits.RateLimit-Reset', statement: 'RateLimit-Reset: integer, seconds until the window resets.' },
  { id: 'limits.Retry-After', statement: 'Retry-After: integer seconds; present on 429 only.' },
  { id: 'limits.text-lengths', statement: 'Maximum length of description and other text fields.', untestable: NOT_SHOWN },
  {
    id: 'versioning.1',
    statement: 'Stable operations use major-version URL paths under /api/v1.',
    untestable: 'every check calls /api/v1; there is nothing further to observe',
  },
  {
    id: 'versioning.2',
    statement: 'A breaking change requires a new major path (/api/v2).',
    untestable: 'a rule for future versions, not an answer of this one',
  },
  { id: 'versioning.3', statement: 'Unversioned /api/* paths are compatibility aliases; clients should prefer /api/v1.' },
  { id: 'versioning.4', statement: 'Deprecations are announced with the Deprecation and Sunset headers (RFC 9745).' },
  { id: 'versioning.5', statement: '/openapi.json is OpenAPI 3.1, interface version 1.0.0.' },
];
