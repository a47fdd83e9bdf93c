/**
 * Votes from IPv6 clients, in process (X-Forwarded-For from a trusted proxy, resolved as the node adapter
 * resolves it): each /64 is one voter, and one /48 adds at most 8 to a feature's count, however many of
 * its /64s vote.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { startInProcessServer } from '../_in-process.ts';

test('30 /64s of one /48 count as 8 votes; another /48 and an IPv4 client count as before', async () => {
  const server = await startInProcessServer({}, { trustedProxies: parseCidrList('127.0.0.1/32') });
  try {
    const vote = async (client: string) => {
      const answer = await server.request({
        method: 'POST',
        path: '/api/v1/roadmap',
        headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
        body: '{"featureId":1}',
      });
      assert.is(answer.status, 200, answer.text);
      return answer.json() as { voted: boolean; vote_count: number };
    };
    const counts: number[] = [];
    for (let i = 0; i < 30; i++) counts.push((await vote(`2001:db8:aa:${i.toString(16)}::1`)).vote_count);
    assert.equal(counts, [1, 2, 3, 4, 5, 6, 7, 8, ...Array(22).fill(8)]);
    // The same /64 again (another address in it) takes its vote back.
    assert.equal(await vote('2001:db8:aa:1d::abcd'), { voted: false, vote_count: 8 });
    assert.equal(await vote('2001:db8:bb::1'), { voted: true, vote_count: 9 });
    assert.equal(await vote('203.0.113.9'), { voted: true, vote_count: 10 });
    const listed = (await server.request({ path: '/api/v1/roadmap', headers: { 'x-forwarded-for': '2001:db8:aa:5::9' } })).json() as {
      features: { id: number; vote_count: number; voted: boolean }[];
    };
    const first = listed.features.find((f) => f.id === 1)!;
    assert.equal([first.vote_count, first.voted], [10, true]);
  } finally {
    await server.close();
  }
});

test.run();
