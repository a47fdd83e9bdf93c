/** "What the service does": no uploads, no remote conversion, OAuth, GraphQL or MCP surface. */
import { describe, fail } from '../answer.ts';
import { ALIAS, V1, type Check } from '../check.ts';
import { expectApiError, expectClientError } from '../expect.ts';

const SPREADSHEET = 'WK1 spreadsheet bytes';

export const serviceChecks: readonly Check[] = [
  {
    id: 'no-uploads',
    clause: 'service.no-uploads',
    title: 'A spreadsheet sent as a multipart upload to each POST endpoint is refused with a 4xx error object',
    requests: 3,
    async run(t) {
      const client = t.client();
      const boundary = 'conformance-kit';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="budget.wk1"\r\nContent-Type: application/vnd.lotus-1-2-3\r\n\r\n${SPREADSHEET}\r\n--${boundary}--\r\n`;
      for (const path of ['/feedback', '/roadmap', '/checkout/create']) {
        const answer = await client.send({ method: 'POST', path: V1 + path, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
        expectClientError(answer);
        expectApiError(answer, answer.status);
      }
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
