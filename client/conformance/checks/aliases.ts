/** The unversioned /api aliases (Endpoints, Versioning 3 and 4): same method, same behaviour. */
import { type Answer, CheckSkip, describe, fail } from '../answer.ts';
import { ALIAS, type Check, MACOS, V1, WINDOWS } from '../check.ts';
import { expectRateLimitHeaders, mediaType } from '../expect.ts';
import { create, status } from './checkout.ts';
import { features, firstFeature, vote } from './roadmap.ts';

/** An error's code: what an error answer must share with its alias (its message may name the path). */
const codeOf = (answer: Answer) => (answer.json as { code?: unknown } | undefined)?.code;

/** The two answers agree on status, media type, Location and body (JSON compared as values; errors by code). */
function expectSame(v1: Answer, alias: Answer): void {
  const what = `${alias.method} ${alias.path} and ${v1.path}`;
  if (alias.status !== v1.status) fail(`${what}: expected the same status, got ${alias.status} and ${v1.status}`);
  if (mediaType(alias) !== mediaType(v1)) fail(`${what}: expected the same Content-Type, got ${mediaType(alias)} and ${mediaType(v1)}`);
  if (alias.headers.get('location') !== v1.headers.get('location')) {
    fail(`${what}: expected the same Location, got ${alias.headers.get('location')} and ${v1.headers.get('location')}`);
  }
  const same = v1.json === undefined
    ? alias.text === v1.text
    : v1.status >= 400
    ? codeOf(alias) === codeOf(v1)
    : JSON.stringify(sorted(alias.json)) === JSON.stringify(sorted(v1.json));
  if (!same) fail(`${what}: expected the same body, got: ${describe(alias)} and: ${describe(v1)}`);
  expectRateLimitHeaders(alias);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)]));
}

/** A stateless request sent on both paths. */
function stateless(id: string, title: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Check {
  return {
    id,
    clause: 'endpoints.aliases',
    also: ['versioning.3'],
    title,
    requests: 2,
    async run(t) {
      const client = t.client();
      const send = (prefix: string) =>
        client.send({
          method,
          path: prefix + path,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      expectSame(await send(V1), await send(ALIAS));
    },
  };
}

export const aliasChecks: readonly Check[] = [
  stateless('alias-pricing', 'GET /api/pricing answers as GET /api/v1/pricing', 'GET', '/pricing'),
  stateless('alias-version', 'GET /api/version answers as GET /api/v1/version', 'GET', '/version'),
  stateless('alias-download', 'GET /api/download answers as GET /api/v1/download (Windows client)', 'GET', '/download?source=conformance-kit', WINDOWS),
  stateless('alias-download-warning', 'GET /api/download answers as GET /api/v1/download (macOS client)', 'GET', '/download', MACOS),
  stateless('alias-feedback', 'POST /api/feedback answers as POST /api/v1/feedback', 'POST', '/feedback', {}, { description: 'conformance kit: alias' }),
  stateless('alias-feedback-error', 'POST /api/feedback refuses as POST /api/v1/feedback (no description)', 'POST', '/feedback', {}, { type: 'general' }),
  stateless('alias-roadmap-error', 'POST /api/roadmap refuses as POST /api/v1/roadmap (featureId 0)', 'POST', '/roadmap', {}, { featureId: 0 }),
  stateless('alias-status-error', 'GET /api/checkout/status refuses as GET /api/v1/checkout/status (no session_id)', 'GET', '/checkout/status'),
  {
    id: 'alias-roadmap',
    clause: 'endpoints.aliases',
    also: ['versioning.3'],
    title: 'GET /api/roadmap lists as /api/v1/roadmap, and a vote through /api is taken back through /api/v1 (one operation)',
    requests: 6,
    async run(t) {
      const client = t.client();
      const listed = async (path: string) => JSON.stringify(sorted(await features(client, path)));
      if ((await listed(`${ALIAS}/roadmap`)) !== (await listed(`${V1}/roadmap`))) fail('expected GET /api/roadmap to list the features of GET /api/v1/roadmap');
      const feature = await firstFeature(client);
      const first = await vote(client, feature.id, `${ALIAS}/roadmap`);
      const second = await vote(client, feature.id, `${V1}/roadmap`);
      if (first.voted === second.voted || second.vote_count !== feature.vote_count) {
        fail(`expected the /api/v1 vote to take back the /api vote, got ${JSON.stringify(first)} then ${JSON.stringify(second)}`);
      }
    },
  },
  {
    id: 'alias-checkout',
    clause: 'endpoints.aliases',
    also: ['versioning.3'],
    title: 'POST /api/checkout/create creates a session, and GET /api/checkout/status reads it as /api/v1 does',
    requests: 3,
    sessions: 1,
    async run(t) {
      const client = t.client();
      const { sessionId } = await create(client, { product: 'standard' }, `${ALIAS}/checkout/create`);
      const [alias, v1] = [await status(client, sessionId, `${ALIAS}/checkout/status`), await status(client, sessionId)];
      if (JSON.stringify(sorted(alias)) !== JSON.stringify(sorted(v1))) {
        fail(`expected the same status on both paths, got ${JSON.stringify(alias)} and ${JSON.stringify(v1)}`);
      }
    },
  },
  {
    id: 'alias-deprecation',
    clause: 'versioning.4',
    title: 'When an alias announces its deprecation, Deprecation is "@<epoch seconds>" (RFC 9745) and Sunset an HTTP-date',
    requests: 1,
    async run(t) {
      const answer = await t.client().get(`${ALIAS}/version`);
      const deprecation = answer.headers.get('deprecation');
      if (deprecation === null) throw new CheckSkip('the aliases announce no deprecation (no Deprecation header)');
      if (!/^@-?\d+$/.test(deprecation.trim())) fail(`expected Deprecation "@<epoch seconds>", got ${JSON.stringify(deprecation)}`);
      const sunset = answer.headers.get('sunset');
      if (sunset !== null && !/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(sunset.trim())) {
        fail(`expected Sunset as an HTTP-date, got ${JSON.stringify(sunset)}`);
      }
    },
  },
];
