/**
 * docs/examples/nextjs-route.ts in process, called as Next calls a route handler: a web Request and no
 * socket (issue 47). Self-hosted without a proxy it trusts, every visitor is one client, and the console
 * says so once with the fix; behind a proxy that sets X-Real-IP (TRUST_X_REAL_IP=1), and on Vercel, each
 * address has a quota of its own. The example reads its settings when it loads, so each set-up imports a
 * fresh copy of it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MISSING_ADDRESS_FIX } from '../../core/clients/client-address.ts';

type Route = typeof import('../../docs/examples/nextjs-route.ts');
const SETTINGS = ['TRUST_X_REAL_IP', 'VERCEL'] as const;

/**
 * Imports the example under the given environment and asks GET pricing once per X-Real-IP given, as a
 * proxy would pass them; the ratelimit-remaining of each answer, and what the example wrote to the console.
 */
async function quotas(env: Partial<Record<(typeof SETTINGS)[number], string>>, addresses: string[]) {
  const saved = SETTINGS.map((name) => [name, process.env[name]] as const);
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (line: unknown) => void warnings.push(String(line));
  try {
    for (const name of SETTINGS) delete process.env[name];
    Object.assign(process.env, env);
    const url = `${new URL('../../docs/examples/nextjs-route.ts', import.meta.url).href}?${new URLSearchParams(env)}`;
    const { GET } = (await import(url)) as Route;
    const answers = [];
    for (const ip of addresses) answers.push(await GET(new Request('http://localhost:3000/api/v1/pricing', { headers: { 'x-real-ip': ip } })));
    return { remaining: answers.map((a) => [a.status, a.headers.get('ratelimit-remaining')]), firstId: answers[0]!.headers.get('x-request-id'), warnings };
  } finally {
    console.warn = warn;
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const ADDRESSES = ['203.0.113.1', '203.0.113.2', '203.0.113.1'];

test('self-hosted without a proxy it trusts: every visitor shares one quota, and the console says so once with the fix', async () => {
  const { remaining, firstId, warnings } = await quotas({}, ADDRESSES);
  assert.equal(remaining, [[200, '119'], [200, '118'], [200, '117']]);
  assert.equal(warnings.map((line) => JSON.parse(line)), [
    {
      level: 'warn',
      message: 'a request came with no client address: every such request is served as one client: one rate-limit quota, one roadmap ' +
        "voter (clientAddress: 'required' answers 500 instead). Said once; each one is counted (client_address_missing)",
      requestId: firstId,
      path: '/api/v1/pricing',
      fix: MISSING_ADDRESS_FIX.node,
    },
  ]);
  assert.match(MISSING_ADDRESS_FIX.node, 'TRUST_X_REAL_IP=1');
});

for (
  const [setUp, env] of [
    ['behind a proxy that sets X-Real-IP (TRUST_X_REAL_IP=1)', { TRUST_X_REAL_IP: '1' }],
    ['on Vercel (VERCEL=1)', { VERCEL: '1' }],
  ] as const
) {
  test(`${setUp}: each address has a quota of its own, and nothing is warned`, async () => {
    const { remaining, warnings } = await quotas(env, ADDRESSES);
    assert.equal(remaining, [[200, '119'], [200, '119'], [200, '118']]);
    assert.equal(warnings, []);
  });
}

test.run();
