/** GET download: the installer redirect (rule 2). */
import { type Answer, fail } from '../answer.ts';
import { type Check, type Client, MACOS, V1, WINDOWS } from '../check.ts';
import { expectStatus } from '../expect.ts';

/** The Location of a 302, which must be a URI (relative ones resolved against the request). */
function location(answer: Answer, baseUrl: string): string {
  expectStatus(answer, 302);
  const value = answer.headers.get('location');
  if (value === null || value === '') fail(`expected a Location header on ${answer.method} ${answer.path}, got none`);
  try {
    return new URL(value, baseUrl + answer.path).href;
  } catch {
    fail(`expected Location to be a URI, got ${JSON.stringify(value)}`);
  }
}

const base = 'http://conformance.test';
const go = async (client: Client, query: string, headers: Record<string, string>) => location(await client.get(`${V1}/download${query}`, headers), base);

export const downloadChecks: readonly Check[] = [
  {
    id: 'download-windows',
    clause: 'rules.2',
    also: ['endpoints.get-download'],
    title: 'GET download from a Windows client is 302 with a Location (the MSI installer)',
    requests: 1,
    async run(t) {
      await go(t.client(), '', WINDOWS);
    },
  },
  {
    id: 'download-warning',
    clause: 'rules.2',
    title: 'GET download from a client that is not Windows redirects elsewhere than a Windows client (the warning page)',
    requests: 2,
    async run(t) {
      const client = t.client();
      const [windows, other] = [await go(client, '', WINDOWS), await go(client, '', MACOS)];
      if (windows === other) fail(`expected a macOS client to be sent to a warning page, got the installer ${windows}`);
    },
  },
  {
    id: 'download-force',
    clause: 'rules.2',
    title: 'GET download?force=1 from a client that is not Windows skips the warning: the same Location as for Windows',
    requests: 2,
    async run(t) {
      const client = t.client();
      const [windows, forced] = [await go(client, '?force=1', WINDOWS), await go(client, '?force=1', MACOS)];
      if (windows !== forced) fail(`expected force=1 to send a macOS client to ${windows}, got ${forced}`);
    },
  },
  {
    id: 'download-source',
    clause: 'endpoints.get-download',
    also: ['rules.2'],
    title: 'GET download takes the optional source label: ?source=conformance-kit is 302',
    requests: 1,
    async run(t) {
      await go(t.client(), '?source=conformance-kit', WINDOWS);
    },
  },
];
