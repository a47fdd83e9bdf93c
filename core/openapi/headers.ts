/**
 * The response headers of the OpenAPI document: which ones each response carries, and their components.
 *
 * @module
 */

/** The five rate-limit headers, on every response. */
export const RATE_LIMIT_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
] as const;

/**
 * The headers of every response: the rate-limit state, which no shared cache may keep, nosniff and the
 * request id.
 */
export const EVERY_RESPONSE_HEADERS = [...RATE_LIMIT_HEADERS, 'Cache-Control', 'X-Content-Type-Options', 'X-Request-Id'] as const;

/** The headers of an answer outside every quota (the probes): no rate-limit state. */
export const UNMETERED_HEADERS = ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id'] as const;

/** The headers of an update file's 200, 304 or 302, which any cache hands to everyone: nothing of the request. */
export const FILE_HEADERS = ['Cache-Control', 'Cache-Tag', 'Surrogate-Key', 'X-Content-Type-Options'] as const;

/** The component of a cacheable answer's Cache-Control (the changelog's 200 and 304), named under Cache-Control. */
export const PUBLIC_CACHE_CONTROL = 'Cache-Control-Public';

/** The component of an update file's Cache-Control (its 200, 304 and 302), named under Cache-Control. */
export const FILE_CACHE_CONTROL = 'Cache-Control-File';

/** The notices on every response of a deprecated /api alias. */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const;

/** A header the document can name. */
export type HeaderName = keyof typeof HEADER_COMPONENTS;

const seconds = { type: 'integer', minimum: 1 };
const count = { type: 'integer', minimum: 0 };

/**
 * A header component: every response that lists a header carries it (required), but for the headers of
 * signed update answers, which depend on the release and on the server's signing key.
 */
interface HeaderComponent {
  description: string;
  required: boolean;
  schema: object;
  example?: string | number;
}

/**
 * One header component, its fields in the document's order.
 *
 * @param description What the header says.
 * @param schema The schema of its value.
 * @param example A typical value for documentation tools, where one helps.
 * @returns The component.
 */
function header(description: string, schema: object, example?: string | number): HeaderComponent {
  return example === undefined ? { description, required: true, schema } : { description, required: true, schema, example };
}

/** A header of signed update answers (docs/updates.md): present when the server signs, and for some only when the release says. */
function signedHeader(description: string, schema: object, example?: string): HeaderComponent {
  return { ...header(description, schema, example), required: false };
}

const HEADER_COMPONENTS = {
  RateLimit: header(
    'Remaining requests and seconds until the window resets, as in draft-ietf-httpapi-ratelimit-headers-08 ' +
      '(fixed window per client).',
    { type: 'string', pattern: '^"public-api";r=[0-9]+;t=[0-9]+$' },
    '"public-api";r=119;t=60',
  ),
  'RateLimit-Policy': header(
    'The quota and its window in seconds (draft-ietf-httpapi-ratelimit-headers-08).',
    { type: 'string', pattern: '^"public-api";q=[0-9]+;w=[0-9]+$' },
    '"public-api";q=120;w=60',
  ),
  'RateLimit-Limit': header('Maximum requests in the current window.', count, 120),
  'RateLimit-Remaining': header('Requests remaining in the current window.', count, 119),
  'RateLimit-Reset': header('Seconds until the window resets (never an epoch time).', seconds, 60),
  'Retry-After': header('Seconds to wait before retrying: the time until the window resets.', seconds, 42),
  'Cache-Control': header(
    "no-store: every answer carries per-client rate-limit state (or, from a probe, the state of this instance). The changelog's 200 and 304 " +
      "(Cache-Control-Public) and the update files' 200, 304 and 302 (Cache-Control-File) alone are public.",
    { type: 'string', const: 'no-store' },
  ),
  'Cache-Control-Public': header(
    "The changelog's 200 and 304 answers only: public, with a short max age in seconds. Any cache may keep the feed that long " +
      '(the RateLimit headers it keeps with it describe the client that fetched it); every other answer is no-store.',
    { type: 'string', pattern: '^public, max-age=[0-9]+$' },
    'public, max-age=300',
  ),
  'Cache-Control-File': header(
    "The update files' 200, 304 and 302 only (they carry nothing per client): public. timestamp.json and root.json for a short max age in " +
      "seconds (60 by default), the versioned files for a year and immutable (a version's bytes never change), a target's redirect for a day.",
    { type: 'string', pattern: '^public, max-age=[0-9]+(, immutable)?$' },
    'public, max-age=60',
  ),
  'Cache-Tag': header(
    "The update files' 200, 304 and 302 only: the channel's cache tag, updates:<channel>, which a purge by tag drops (Cloudflare reads " +
      'it; docs/operating.md "Purging the caches").',
    { type: 'string', pattern: '^updates:[a-z0-9-]{1,32}$' },
    'updates:stable',
  ),
  'Surrogate-Key': header(
    "The update files' 200, 304 and 302 only: the same tag as Cache-Tag, for Fastly and Varnish (a purge by surrogate key, or a BAN, drops it).",
    { type: 'string', pattern: '^updates:[a-z0-9-]{1,32}$' },
    'updates:stable',
  ),
  ETag: header(
    'A strong entity tag of the body (the first 128 bits of its SHA-256, hex): send it back in If-None-Match to get 304 while unchanged.',
    { type: 'string', pattern: '^"[0-9a-f]{32}"$' },
    '"3f1c2a9e5b7d4e0f9a612c8d4b7e1f05"',
  ),
  'Last-Modified': {
    ...header(
      'When the newest release of the feed reached every client (an HTTP-date); absent while the feed has no item.',
      {
        type: 'string',
        pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
      },
      'Fri, 01 Jan 2027 00:00:00 GMT',
    ),
    required: false,
  },
  'X-Request-Id': header(
    "The id of this request, on every answer but an update file's 200, 304 and 302, and in every server log line about it: the X-Request-Id the " +
      'caller sent when it is 1 to 128 characters of A-Z a-z 0-9 . _ : -, otherwise a fresh UUID.',
    { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    '3f1c2a9e-5b7d-4e0f-9a61-2c8d4b7e1f05',
  ),
  'X-Content-Type-Options': header(
    'Always nosniff: the body is of the type Content-Type names, never guessed from its content.',
    { type: 'string', const: 'nosniff' },
  ),
  Location: header(
    "The redirect target: the MSI installer or the Windows-only warning page, both set by the operator (an update target's: its installer).",
    { type: 'string', format: 'uri' },
  ),
  Vary: header(
    'The request headers the redirect target depends on (and Origin when CORS origins are configured).',
    { type: 'string', pattern: '^User-Agent, Sec-CH-UA-Platform(, Origin)?$' },
    'User-Agent, Sec-CH-UA-Platform',
  ),
  'Content-Digest': signedHeader(
    'The SHA-256 of the body (RFC 9530), covered by the signature: sent when the server signs answers.',
    { type: 'string', pattern: '^sha-256=:[A-Za-z0-9+/]{43}=:$' },
  ),
  'Signature-Input': signedHeader(
    'The components the RFC 9421 signature covers and its parameters: @status first, then Content-Digest (or Location and, ' +
      'on a redirect to the MSI, Release-Version) and the release headers below that are present (License-Key-Digest on a ' +
      'license standing); created, expires, the nonce the request sent (a license standing asked with one), keyid (the license ' +
      'public key, base64url), alg "ed25519", and tag: "update" on GET /version and GET /download, "license-standing" on ' +
      'POST /licenses/validate. A verifier refuses an answer whose tag is not the one it expects.',
    {
      type: 'string',
      pattern:
        '^update=\\("@status"( "[a-z-]+")*\\);created=[0-9]+;expires=[0-9]+(;nonce="[A-Za-z0-9_-]{16,64}")?;keyid="[A-Za-z0-9_-]+";alg="ed25519";tag="(update|license-standing)"$',
    },
  ),
  Signature: signedHeader('The Ed25519 signature of the signature base (RFC 9421), base64.', { type: 'string', pattern: '^update=:[A-Za-z0-9+/]+={0,2}:$' }),
  'License-Key-Digest': signedHeader(
    'The SHA-256 (RFC 9530 syntax) of the licenseKey string as sent (UTF-8), covered by the signature: the answer is about that key and no other.',
    { type: 'string', pattern: '^sha-256=:[A-Za-z0-9+/]{43}=:$' },
  ),
  'Release-Version': signedHeader(
    'The version of the release whose MSI the redirect names, covered by the signature: the app installs it only when it is the version GET /version offered it.',
    { type: 'string', pattern: '^[0-9]+(\\.[0-9]+){1,3}(-[0-9A-Za-z.-]{1,32})?$' },
    '2.6.2',
  ),
  'Installer-Digest': signedHeader(
    "The SHA-256 of the release's MSI (RFC 9530 syntax), when the operator gave it: compare it with the downloaded file.",
    { type: 'string', pattern: '^sha-256=:[A-Za-z0-9+/]{43}=:$' },
  ),
  'Installer-Size': signedHeader("The size of the release's MSI in bytes, when the operator gave it.", { type: 'string', pattern: '^[0-9]+$' }, '48234496'),
  'Release-Notes': signedHeader('The release notes address, when the release has one.', { type: 'string', format: 'uri' }),
  'Release-Critical': signedHeader('?1 when the release is critical (absent otherwise).', { type: 'string', const: '?1' }),
  Deprecation: header(
    'When this alias was (or will be) deprecated, as @ and seconds since the epoch (RFC 9745).',
    { type: 'string', pattern: '^@-?[0-9]+$' },
    '@1798761600',
  ),
  Sunset: header(
    'When this alias stops answering, as an HTTP-date (RFC 8594).',
    {
      type: 'string',
      pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
    },
    'Fri, 01 Jan 2027 00:00:00 GMT',
  ),
  Link: header(
    'The /api/v1 path that replaces this alias (RFC 8288).',
    { type: 'string', pattern: '^</api/v1/[^>]*>; rel="successor-version"$' },
    '</api/v1/pricing>; rel="successor-version"',
  ),
};

/**
 * The header components the document uses.
 *
 * @param names The headers referenced by some response.
 * @returns The components, in a fixed order, without unused ones.
 */
export function headerComponents(names: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => names.has(name)));
}
