/** GET and POST roadmap (rules 5 and 6): the visible features and the per-address vote toggle. */
import { CheckSkip, fail } from '../answer.ts';
import { type Check, type Client, V1 } from '../check.ts';
import { expectApiError, expectObject } from '../expect.ts';
import { expectShape, ROADMAP_FEATURE, ROADMAP_LIST, VOTE_RESPONSE } from '../shape.ts';

const PATH = `${V1}/roadmap`;

interface Feature {
  id: number;
  vote_count: number;
  voted: boolean;
}

/** The visible features as `client` sees them. */
export async function features(client: Client, path = PATH): Promise<Feature[]> {
  const list = expectObject(await client.get(path), 200);
  expectShape(list, ROADMAP_LIST);
  const all = list['features'] as unknown[];
  for (const feature of all) expectShape(feature, ROADMAP_FEATURE);
  return all as Feature[];
}

/** The first visible feature; the check is skipped when the roadmap lists none. */
export async function firstFeature(client: Client, path = PATH): Promise<Feature> {
  const [feature] = await features(client, path);
  if (!feature) throw new CheckSkip('the roadmap lists no feature to vote for');
  return feature;
}

/** Toggles `client`'s vote through `path`; returns the vote response. */
export async function vote(client: Client, featureId: number, path = PATH): Promise<{ voted: boolean; vote_count: number }> {
  const body = expectObject(await client.post(path, { featureId }), 200);
  expectShape(body, VOTE_RESPONSE);
  return body as unknown as { voted: boolean; vote_count: number };
}

function expectVote(got: { voted: boolean; vote_count: number }, voted: boolean, count: number, what: string): void {
  if (got.voted !== voted || got.vote_count !== count) fail(`${what}: expected {"voted":${voted},"vote_count":${count}}, got ${JSON.stringify(got)}`);
}

export const roadmapChecks: readonly Check[] = [
  {
    id: 'roadmap-list',
    clause: 'roadmap-list.closed',
    also: ['roadmap-feature.fields', 'endpoints.get-roadmap', 'rules.5'],
    title: 'GET roadmap is 200 JSON of exactly {features}, each a Roadmap feature with its required fields and types',
    requests: 1,
    async run(t) {
      await features(t.client());
    },
  },
  {
    id: 'roadmap-vote-toggles',
    clause: 'rules.6',
    also: ['roadmap-vote-response.fields', 'endpoints.post-roadmap'],
    title: 'POST roadmap toggles: a first vote gives voted true and the count plus one, the same request again takes it back',
    requests: 3,
    async run(t) {
      const client = t.client();
      const feature = await firstFeature(client);
      const step = feature.voted ? -1 : 1;
      expectVote(await vote(client, feature.id), !feature.voted, feature.vote_count + step, 'first vote');
      expectVote(await vote(client, feature.id), feature.voted, feature.vote_count, 'the same vote again');
    },
  },
  {
    id: 'roadmap-voted-reflects-caller',
    clause: 'rules.5',
    title: 'After a vote, GET roadmap shows voted true for that feature to the voter; after the second vote, false',
    requests: 5,
    async run(t) {
      const client = t.client();
      const feature = await firstFeature(client);
      if (feature.voted) await vote(client, feature.id);
      await vote(client, feature.id);
      const seen = (await features(client)).find((f) => f.id === feature.id);
      await vote(client, feature.id);
      const after = (await features(client)).find((f) => f.id === feature.id);
      if (seen?.voted !== true) fail(`expected voted true after voting for feature ${feature.id}, got ${JSON.stringify(seen)}`);
      if (after?.voted !== false) fail(`expected voted false after the vote was taken back, got ${JSON.stringify(after)}`);
    },
  },
  {
    id: 'roadmap-vote-per-address',
    clause: 'rules.6',
    also: ['rules.5', 'authentication.per-ip'],
    title: 'Votes are per caller address: a second client sees voted false, and its own vote adds to the count',
    requests: 6,
    needs: ['clients'],
    async run(t) {
      const [alice, bob] = [t.client(), t.client()];
      const feature = await firstFeature(alice);
      expectVote(await vote(alice, feature.id), true, feature.vote_count + 1, 'first client');
      const seen = (await features(bob)).find((f) => f.id === feature.id);
      const bobs = await vote(bob, feature.id);
      await vote(alice, feature.id);
      await vote(bob, feature.id);
      if (seen?.voted !== false) fail(`expected another client to see voted false, got ${JSON.stringify(seen)}`);
      expectVote(bobs, true, feature.vote_count + 2, 'second client');
    },
  },
  {
    id: 'roadmap-unknown-feature',
    clause: 'rules.6',
    title: 'POST roadmap for a featureId that no visible feature has is 404',
    requests: 2,
    async run(t) {
      const client = t.client();
      const ids = (await features(client)).map((f) => f.id);
      expectApiError(await client.post(PATH, { featureId: Math.max(0, ...ids) + 1000 }), 404);
    },
  },
  {
    id: 'roadmap-feature-id-minimum',
    clause: 'limits.featureId',
    also: ['roadmap-vote-request.featureId'],
    title: 'POST roadmap with featureId 0, -1, 1.5 or "1" (not an integer of at least 1) is 400',
    requests: 4,
    async run(t) {
      const client = t.client();
      for (const featureId of [0, -1, 1.5, '1']) expectApiError(await client.post(PATH, { featureId }), 400);
    },
  },
  {
    id: 'roadmap-vote-closed',
    clause: 'roadmap-vote-request.closed',
    title: 'POST roadmap with a field besides featureId is 400, and does not vote',
    requests: 3,
    async run(t) {
      const client = t.client();
      const feature = await firstFeature(client);
      expectApiError(await client.post(PATH, { featureId: feature.id, weight: 2 }), 400);
      const after = (await features(client)).find((f) => f.id === feature.id);
      if (after?.voted !== feature.voted) fail(`expected the refused request not to vote, got voted ${String(after?.voted)}`);
    },
  },
  {
    id: 'roadmap-body-required',
    clause: 'endpoints.post-roadmap',
    title: 'POST roadmap without a body (the body is required) is 400',
    requests: 1,
    async run(t) {
      expectApiError(await t.client().post(PATH), 400);
    },
  },
];
