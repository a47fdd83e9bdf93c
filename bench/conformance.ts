/**
 * How long the conformance kit takes (issue 34's targets): the whole kit in process over the core app
 * (under 15 s), the `conformance` command against the server program at a URL with
 * --client-address-header (under 30 s), and with --paced, from one address against the default quota,
 * compared with the time the kit announces. A benchmark, not a test: it prints numbers, it asserts none.
 *
 * Usage: npm run bench:conformance [-- --paced]
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createFetchHandler } from '../adapters/fetch/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { type ConformanceReport, runConformance, simulatorPayment } from '../client/conformance/index.ts';
import { createApp, parseCidrList, SiteContentSchema } from '../core/index.ts';
import { EXAMPLE_CONFIG } from '../server/config.ts';
import { RUNTIME_COMMANDS, startProcess } from './process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const PAY_URL = '/checkout/simulator/{sessionId}/pay';

interface Row {
  scenario: string;
  seconds: number;
  target: string;
  result: string;
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const counts = (report: ConformanceReport) => `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;

async function inProcess(): Promise<Row> {
  const config = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  const content = v.parse(SiteContentSchema, { offer: config['offer'], download: config['download'], roadmap: config['roadmap'] });
  const storage = createMemoryStorage();
  const publicBaseUrl = 'http://localhost:8080';
  const app = await createApp({
    content,
    storage,
    gateway: createSimulatorGateway({ storage, publicBaseUrl }),
    publicBaseUrl,
    version: { current: () => '2.4.1' },
  });
  const handler = createFetchHandler(app, { trustedProxies: parseCidrList('127.0.0.1/32') });
  const begun = performance.now();
  const report = await runConformance({
    fetch: async (request) => handler(request, '127.0.0.1'),
    clientAddressHeader: 'x-forwarded-for',
    payCheckout: simulatorPayment,
  });
  return { scenario: 'in process (fetch, client addresses)', seconds: seconds(begun), target: '< 15 s', result: counts(report) };
}

async function overUrl(): Promise<Row> {
  const server = await startProcess('server', RUNTIME_COMMANDS.node!('server/main.ts'), { STORAGE: 'memory', TRUSTED_PROXIES: '127.0.0.1/32' });
  try {
    const args = [
      '--import',
      'tsx',
      'server/cli/main.ts',
      'conformance',
      '--base-url',
      server.url,
      '--client-address-header',
      'x-forwarded-for',
      '--pay-url',
      PAY_URL,
      '--format',
      'json',
    ];
    const begun = performance.now();
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, args, { cwd: root, maxBuffer: 16 * 2 ** 20 }, (error, out) => (error && error.code !== 1 ? reject(error) : resolve(out)))
    );
    return {
      scenario: 'command at a URL, --client-address-header',
      seconds: seconds(begun),
      target: '< 30 s',
      result: counts(JSON.parse(stdout) as ConformanceReport),
    };
  } finally {
    await server.stop();
  }
}

async function paced(): Promise<Row> {
  const server = await startProcess('server', RUNTIME_COMMANDS.node!('server/main.ts'), { STORAGE: 'memory' });
  try {
    let announced = '';
    const begun = performance.now();
    const report = await runConformance({ baseUrl: server.url, payCheckout: simulatorPayment, log: (line) => (announced ||= line) });
    const limit = /up to (\d+) s waiting/.exec(announced)?.[1];
    return {
      scenario: 'at a URL from one address, default quota',
      seconds: seconds(begun),
      target: `announced: up to ${limit ?? '?'} s of waiting`,
      result: counts(report),
    };
  } finally {
    await server.stop();
  }
}

const rows = [await inProcess(), await overUrl(), ...(process.argv.includes('--paced') ? [await paced()] : [])];
process.stdout.write(
  [
    '| Scenario | Seconds | Target | Checks |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.seconds.toFixed(1)} | ${r.target} | ${r.result} |`),
  ].join('\n') + '\n',
);
