/** "What the service does": no uploads, no remote conversion, OAuth, GraphQL or MCP surface. */
import { type Answer, describe, fail } from '../answer.ts';
import { ALIAS, type Check, V1 } from '../check.ts';
import { expectApiError, expectClientError, expectObject } from '../expect.ts';
import { CHECKOUT_CREATED, expectShape } from '../shape.ts';
import type { Send } from '../transport.ts';

const SPREADSHEET = 'WK1 spreadsheet bytes';

/** A multipart/form-data request carrying a .wk1 spreadsheet as a file. */
function upload(path: string): Send {
  const boundary = 'conformance-kit';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="budget.wk1"\r\nContent-Type: application/vnd.lotus-1-2-3\r\n\r\n${SPREADSHEET}\r\n--${boundary}--\r\n`;
  return { method: 'POST', path: V1 + path, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}

/** A 4xx error object: the upload refused. */
function refused(answer: Answer): void {
  expectClientError(answer);
  expectApiError(answer, answer.status);
}

export const serviceChecks: readonly Check[] = [
  {
    id: 'no-uploads',
    clause: 'service.no-uploads',
    title:
      'A spreadsheet sent as a multipart upload is refused by POST feedback and roadmap with a 4xx error object; POST checkout/create refuses it or ignores it',
    requests: 3,
    sessions: 1,
    async run(t) {
      const client = t.client();
      for (const path of ['/feedback', '/roadmap']) refused(await client.send(upload(path)));
      // The endpoint lists no 400 and its body is optional: a session created with the file ignored accepts no upload.
      const answer = await client.send(upload('/checkout/create'));
      if (answer.status === 200) expectShape(expectObject(answer, 200), CHECKOUT_CREATED);
      else refused(answer);
    },
  },
  {
    id: 'no-uploads-refused',
    clause: 'service.no-uploads',
    title: 'POST checkout/create refuses a spreadsheet sent as a multipart upload with a 4xx error object',
    requests: 1,
    sessions: 1,
    strict: "the endpoint's row lists no 400, so a server that ignores the file and creates a session also accepts no upload",
    async run(t) {
      refused(await t.client().send(upload('/checkout/create')));
    },
  },
  {
    id: 'no-remote-surfaces',
    clause: 'service.no-remote-surfaces',
    also: ['errors.not_found'],
    title: 'No conversion, GraphQL, OAuth or MCP endpoint: /api/v1/convert, /api/graphql, /api/v1/oauth/token and /api/mcp are 404 not_found',
    requests: 4,
    async run(t) {
      const client = t.client();
      for (const path of [`${V1}/convert`, `${ALIAS}/graphql`, `${V1}/oauth/token`, `${ALIAS}/mcp`]) {
        const answer = await client.send({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}' });
        if (answer.status < 400) fail(`expected no endpoint, got: ${describe(answer)}`);
        expectApiError(answer, 404, 'not_found');
      }
    },
  },
];
