/**
 * The scenario server (`converter-site-api scenarios`): the answers a desktop app must handle, one
 * scenario under each `/scenario/<name>/` prefix (its API under `/scenario/<name>/api/v1/...`, its
 * installers under `/scenario/<name>/installer/...`), and `GET /scenarios`, which lists them with what a
 * correct app does. A test tool for the desktop app's own tests, not the public API: it signs with a
 * published test key. See docs/conformance.md "Testing the desktop app".
 *
 * @module
 */
import type { Clock, Logger } from '../../core/ports/ports.ts';
import { INSTALLED_VERSION } from './apps.ts';
import { createScenarios, type Scenario } from './catalogue.ts';
import { OTHER_PUBLIC_KEY, SCENARIO_PUBLIC_KEY } from './test-keys.ts';

export interface ScenarioServerOptions {
  /** Where the server is reached, e.g. http://127.0.0.1:8787: the scenarios' addresses and installers name it. */
  baseUrl: string;
  /** The server's clock; the system's by default. Signatures are made on it (the expired scenario's an hour behind). */
  clock?: Clock;
  /** Where the apps log (the server-error scenario's failure); nowhere by default. */
  logger?: Logger;
}

export interface ScenarioServer {
  /** Answers one request from `clientIp`. */
  handle(request: Request, clientIp: string): Promise<Response>;
  readonly scenarios: readonly Scenario[];
}

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

function json(status: number, body: unknown): Response {
  return new Response(`${JSON.stringify(body, null, 2)}\n`, { status, headers: { 'content-type': 'application/json' } });
}

const notFound = (path: string) =>
  json(404, { code: 'not_found', message: `The scenario server has nothing at ${path}.`, resolution: 'GET /scenarios lists every scenario and its address.' });

/**
 * Creates the scenario server's handler and every scenario (their apps, releases and licenses).
 *
 * @param options Its address, clock and logger.
 * @returns The handler and the scenarios.
 */
export async function createScenarioServer(options: ScenarioServerOptions): Promise<ScenarioServer> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? { now: () => Date.now() };
  const logger = options.logger ?? quiet;
  const prefixOf = (name: string) => `${base}/scenario/${name}`;
  const scenarios = await createScenarios((name) => ({ prefix: prefixOf(name), clock, logger }));
  const byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
  const listing = {
    about: 'Scenarios for the desktop app\'s own tests (docs/conformance.md "Testing the desktop app"): point the app at a scenario\'s apiBase ' +
      '(its update check and license re-check), and check that it does what `correct` says. Signed with a test-only key: never trust it outside tests.',
    installedVersion: INSTALLED_VERSION,
    publicKey: SCENARIO_PUBLIC_KEY,
    otherPublicKey: OTHER_PUBLIC_KEY,
    scenarios: scenarios.map(({ name, check, serves, correct, outcome, licenseKey, updateFiles }) => ({
      name,
      check,
      apiBase: `${prefixOf(name)}/api/v1`,
      serves,
      correct,
      outcome,
      ...(licenseKey === undefined ? {} : { licenseKey }),
      ...(updateFiles === undefined ? {} : {
        updatesBase: `${prefixOf(name)}/updates/stable/`,
        rootUrl: `${prefixOf(name)}/trusted/root.json`,
        trustedUrls: Object.fromEntries(Object.keys(updateFiles.trusted).map((role) => [role, `${prefixOf(name)}/trusted/${role}.json`])),
        now: updateFiles.now,
        installId: updateFiles.installId,
        installedVersion: updateFiles.installedVersion,
        expected: updateFiles.expected,
      }),
    })),
  };

  async function handle(request: Request, clientIp: string): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/scenarios' || url.pathname === '/') return request.method === 'GET' ? json(200, listing) : notFound(url.pathname);
    const match = /^\/scenario\/([a-z0-9-]+)(\/.*)$/.exec(url.pathname);
    const scenario = match ? byName.get(match[1]!) : undefined;
    if (!match || !scenario) return notFound(url.pathname);
    const rest = match[2]!;
    const installer = /^\/installer\/([^/]+)$/.exec(rest);
    if (installer) {
      const bytes = scenario.installers.get(installer[1]!);
      if (!bytes || request.method !== 'GET') return notFound(url.pathname);
      return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/x-msi', 'content-length': String(bytes.length) } });
    }
    const notes = /^\/notes\/([0-9.]+)$/.exec(rest);
    if (notes && request.method === 'GET') {
      return new Response(`Release notes of ${notes[1]} (a scenario of converter-site-api).\n`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    }
    const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
    const inner = new Request(new URL(rest + url.search, url.origin), { method: request.method, headers: request.headers, body });
    return scenario.handle(inner, clientIp);
  }

  return { handle, scenarios };
}
