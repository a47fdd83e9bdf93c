/**
 * What the scripts that write signed-answer vectors share (scripts/signature-vectors.ts,
 * scripts/license-validate-vectors.ts): the test-only key, the time they are signed at, the app that
 * answers them, the part of an answer a vector keeps, and how a vector file is written.
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as v from 'valibot';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { type App, createApp } from '../core/app.ts';
import type { CoreResponse } from '../core/http/http.ts';
import { createLicenseIssuer } from '../core/licensing/license.ts';
import type { PaymentGateway } from '../core/ports/gateway-port.ts';
import type { Storage } from '../core/ports/ports.ts';
import { SiteContentSchema } from '../core/schemas/content.ts';

/** A key made for these vectors only: it signs nothing else, and no app may trust it outside its tests. */
export const VECTOR_KEY = 'MC4CAQAwBQYDK2VwBCIEIJ/lE81XRpU75kpzwnpf/638uy65DMqPzDn5SsL1IVnG';
/** When the vectors were signed: 2026-11-26T12:00:00Z. */
export const SIGNED_AT = Date.UTC(2026, 10, 26, 12, 0, 0);

/** An answer as a vector keeps it: its status, the headers named (those it has), its body as text ("" for none). */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The part of `answer` a vector keeps: the headers of `names` (lower-case) that it has. */
export function keptAnswer(answer: CoreResponse, names: readonly string[]): KeptAnswer {
  const headers = Object.fromEntries(names.filter((name) => answer.headers[name] !== undefined).map((name) => [name, answer.headers[name]!]));
  const body = answer.body === null ? '' : typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
  return { status: answer.status, headers, body };
}

/** The app that answers the vectors, its storage, and its clock, which stands still until moved on. */
export interface VectorApp {
  app: App;
  storage: Storage;
  /** The clock's time, SIGNED_AT at first. */
  now(): number;
  /** Moves the clock on by `ms`. */
  advance(ms: number): void;
}

/**
 * Creates the app over the example config's content, on memory storage and the payment simulator, at
 * SIGNED_AT, issuing and signing with VECTOR_KEY; serving version 2.4.1 at https://api.example.com.
 *
 * @param gateway The gateway it takes payments through, made from the simulator; the simulator itself by default.
 */
export async function createVectorApp(gateway: (simulator: PaymentGateway) => PaymentGateway = (simulator) => simulator): Promise<VectorApp> {
  const config = JSON.parse(readFileSync(new URL('../example/config.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  const content = v.parse(SiteContentSchema, { offer: config['offer'], download: config['download'], roadmap: config['roadmap'] });
  let now = SIGNED_AT;
  const clock = { now: () => now };
  const storage = createMemoryStorage({ clock });
  const simulator = createSimulatorGateway({ storage, publicBaseUrl: 'https://api.example.com', clock });
  const app = await createApp({
    content,
    storage,
    gateway: gateway(simulator),
    clock,
    version: { current: () => '2.4.1' },
    licenses: await createLicenseIssuer(VECTOR_KEY),
    publicBaseUrl: 'https://api.example.com',
  });
  return { app, storage, now: clock.now, advance: (ms) => void (now += ms) };
}

/** Writes `vectors` to `path` as JSON with two-space indents and a final newline, and says so on stdout. */
export function writeVectors(path: URL, vectors: unknown): void {
  writeFileSync(path, `${JSON.stringify(vectors, null, 2)}\n`);
  console.log(`wrote ${path.pathname}`);
}
