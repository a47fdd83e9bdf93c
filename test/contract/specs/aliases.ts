/** The unversioned /api aliases: every answer exactly like its /api/v1 path. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { JSON_BODY } from './_expect.ts';

/** Headers that differ between any two answers: the connection's, the date, the request id. */
const PER_ANSWER = ['date', 'connection', 'keep-alive', 'x-request-id'];

export const aliasesSpec: Spec = (it) => {
  for (
    const [method, path, body] of [
      ['GET', '/pricing', undefined],
      ['GET', '/version', undefined],
      ['GET', '/download?force=1', undefined],
      ['GET', '/download?force=yes', undefined],
      ['GET', '/roadmap', undefined],
      ['POST', '/roadmap', { featureId: 99 }],
      ['POST', '/feedback', { description: '' }],
      ['POST', '/checkout/create', { product: 'gold' }],
      ['GET', '/checkout/status?session_id=nope', undefined],
    ] as const
  ) {
    it(`${method} /api${path} answers exactly like /api/v1${path}`, async (server) => {
      const send = (prefix: string) =>
        server.request({
          method,
          path: prefix + path,
          ...(body === undefined ? {} : { headers: JSON_BODY, body: JSON.stringify(body) }),
          from: server.newClient(),
        });
      const [v1, alias] = [await send('/api/v1'), await send('/api')];
      assert.is(alias.status, v1.status);
      assert.is(alias.text, v1.text);
      const strip = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([name]) => !PER_ANSWER.includes(name)));
      assert.equal(strip(alias.headers), strip(v1.headers));
    });
  }
};
