/**
 * Shared test fixtures: a manual clock, the example content, an app on memory storage, and a real
 * node:http server on 127.0.0.1 whose clients can be given distinct addresses (127.0.0.x).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpInit, type HttpResult, sendRequest } from './_client.ts';
import * as v from 'valibot';
import { mailHtml } from '../adapters/mail-html/index.ts';
import { createMemoryStorage, type MemoryStorage } from '../adapters/memory/index.ts';
import { createNodeListener } from '../adapters/node/index.ts';
import { answerOddRequests } from '../adapters/node/odd-requests.ts';
import { createSimulatorGateway, type SimulatorOptions } from '../adapters/simulator/index.ts';
import { type App, type AppOptions, createApp } from '../core/app.ts';
import type { CoreRequest, CoreResponse } from '../core/http/http.ts';
import type { MailHtml } from '../core/ports/mail.ts';
import type { Logger, PaymentGateway, RateLimitStore, VersionSource } from '../core/ports/ports.ts';
import { type SiteContent, SiteContentSchema } from '../core/schemas/content.ts';
import { EXAMPLE_CONFIG } from '../server/config.ts';

/** A clock that moves only when told to. */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
  set(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): ManualClock {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms), set: (ms) => void (time = ms) };
}

/** The example content shipped with the server. */
export function exampleContent(): SiteContent {
  const raw = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  return v.parse(SiteContentSchema, { offer: raw['offer'], download: raw['download'], roadmap: raw['roadmap'] });
}

/** A logger that keeps its lines, so tests can assert what was logged and keep the output clean. */
export function memoryLogger(): Logger & { lines: { level: string; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const add = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push(fields ? { level, message, fields } : { level, message });
  return { lines, info: add('info'), warn: add('warn'), error: add('error') };
}

/** A version source the test can change. */
export function fixedVersion(initial = '2.4.1'): VersionSource & { set(version: string): void } {
  let current = initial;
  return { current: () => current, set: (version) => void (current = version) };
}

export interface TestApp {
  app: App;
  storage: MemoryStorage;
  clock: ManualClock;
  logger: ReturnType<typeof memoryLogger>;
  version: ReturnType<typeof fixedVersion>;
  gateway: PaymentGateway;
  content: SiteContent;
}

/** App options, and the simulator's return addresses and offer. */
export type TestAppOptions = Partial<Omit<AppOptions, 'mailHtml'>> & {
  /** The mails' HTML renderer: adapters/mail-html by default (the standalone server's); null for text-only mail. */
  mailHtml?: MailHtml | null;
  simulator?: Pick<SimulatorOptions, 'returnTo' | 'offer' | 'thanksPage'>;
  /** Counters in place of the storage's own (a store that fails, or answers later). */
  rateLimitStore?: RateLimitStore;
};

/** An app on fresh memory storage with the simulator, a manual clock and the example content. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { simulator, rateLimitStore, mailHtml: html = mailHtml, ...overrides } = options;
  const clock = manualClock();
  const logger = memoryLogger();
  const storage = createMemoryStorage({ clock });
  const version = fixedVersion();
  const content = exampleContent();
  // The simulator keeps its sessions where the app does: the given storage, when a test passes one.
  const gateway = createSimulatorGateway({ storage: overrides.storage ?? storage, publicBaseUrl: 'http://localhost:8080', clock, ...simulator });
  const chosen = overrides.storage ?? storage;
  const appStorage = rateLimitStore ? (Object.assign(Object.create(chosen), { rateLimits: rateLimitStore }) as typeof chosen) : chosen;
  const app = await createApp({ content, version, gateway, clock, logger, ...(html ? { mailHtml: html } : {}), ...overrides, storage: appStorage });
  return { app, storage, clock, logger, version, gateway, content };
}

/** A core request with defaults: GET, no headers, client 203.0.113.10. */
export function coreRequest(init: Partial<CoreRequest> & { json?: unknown }): CoreRequest {
  const { json, ...rest } = init;
  const headers = json === undefined ? (rest.headers ?? {}) : { 'content-type': 'application/json', ...rest.headers };
  return {
    method: 'GET',
    path: '/',
    clientIp: '203.0.113.10',
    ...rest,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  };
}

/** The body of a core response as text. */
export function bodyText(response: CoreResponse): string {
  if (response.body === null) return '';
  return typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
}

/** The body of a core response parsed as JSON. */
export function bodyJson(response: CoreResponse): unknown {
  return JSON.parse(bodyText(response));
}

export type { HttpResult } from './_client.ts';

export interface TestServer extends TestApp {
  server: Server;
  port: number;
  /** Sends one request over a real socket; `from` picks the client address (127.0.0.x). */
  request(init: HttpInit): Promise<HttpResult>;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 over a test app. */
export async function startTestServer(
  overrides: TestAppOptions = {},
  listenerOptions: Parameters<typeof createNodeListener>[1] = {},
): Promise<TestServer> {
  const testApp = await createTestApp(overrides);
  const server = createServer({ maxHeaderSize: 16 * 1024, requireHostHeader: false }, createNodeListener(testApp.app, listenerOptions));
  answerOddRequests(server, testApp.app, listenerOptions.trustedProxies ?? null);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    ...testApp,
    server,
    port,
    request: (init) => sendHttp(port, init),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One HTTP request to 127.0.0.1:port, without keep-alive. */
export function sendHttp(port: number, init: HttpInit): Promise<HttpResult> {
  return sendRequest(`http://127.0.0.1:${port}`, init);
}
