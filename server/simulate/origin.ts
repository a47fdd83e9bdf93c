/**
 * The origin of the update simulation: the real app (core/app.ts) over memory storage on the
 * simulation's clock, with a freshly generated offline root key (it signs root 1, stored as an operator
 * would) and online key (the app signs targets, snapshot and timestamp with it on each refresh). Every
 * call the app makes to its storage while it answers a request is counted: the update files are served
 * from memory, so a check costs no database statement.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { createSimulatorGateway } from '../../adapters/simulator/index.ts';
import { type App, createApp } from '../../core/app.ts';
import type { CoreResponse } from '../../core/http/http.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type { Clock, Storage } from '../../core/ports/ports.ts';
import type { NewRelease } from '../../core/ports/release-store.ts';
import { type SiteContent, SiteContentSchema } from '../../core/schemas/content.ts';
import { buildRoot, createTufSigner, envelopeText, expiresMs, signEnvelope } from '../../core/tuf/index.ts';
import { EXAMPLE_CONFIG } from '../config.ts';

/** The channel simulated. */
export const CHANNEL = 'stable';

/** The origin as the simulation drives it. */
export interface SimOrigin {
  app: App;
  /** Root 1 as stored: the text every simulated install pins. */
  rootText: string;
  /** GET a path of the app; `headers` as a client or a cache sends them. Counts the storage calls made meanwhile. */
  get(path: string, headers: Record<string, string>): Promise<CoreResponse>;
  /** Storage calls made while requests were being answered. */
  storageCallsInRequests(): number;
  publish(release: NewRelease): Promise<void>;
  halt(version: string, at: number, reason: string): Promise<void>;
  /** Signs what is due (the standalone server does it every second). */
  refresh(): Promise<void>;
}

/** Storage whose every method call is counted while `counting()` is true. */
function countedStorage(storage: Storage, counting: () => boolean, count: () => void): Storage {
  const wrapped = new Map<object, object>();
  const wrap = <T extends object>(target: T, depth: number): T => {
    const known = wrapped.get(target);
    if (known !== undefined) return known as T;
    const methods = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key, object) as unknown;
        if (typeof value === 'function') {
          let method = methods.get(key);
          if (method === undefined) {
            const fn = value as (...args: unknown[]) => unknown;
            method = (...args: unknown[]) => {
              if (counting()) count();
              return fn.apply(object, args);
            };
            methods.set(key, method);
          }
          return method;
        }
        return value !== null && typeof value === 'object' && depth > 0 ? wrap(value as object, depth - 1) : value;
      },
    });
    wrapped.set(target, proxy);
    return proxy;
  };
  return wrap(storage, 1);
}

/**
 * Creates the origin at `clock.now()`, its root stored and `baseline` published, and signs its first files.
 *
 * @param clock The simulation's clock.
 * @param voterSecret The app's voter secret (the line seeds derive from it).
 * @param timestampMaxAge The timestamp's max-age in seconds.
 */
export async function createSimOrigin(clock: Clock, voterSecret: string, timestampMaxAge: number): Promise<SimOrigin> {
  const raw = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  const content: SiteContent = v.parse(SiteContentSchema, { offer: raw['offer'], download: raw['download'], roadmap: raw['roadmap'] });
  const memory = createMemoryStorage({ clock });
  let handling = false;
  let calls = 0;
  const storage = countedStorage(memory, () => handling, () => void calls++);
  const online = await createTufSigner(await generateSigningKey());
  const rootKey = await createTufSigner(await generateSigningKey());
  const start = clock.now();
  const signed = await buildRoot({ version: 1, expires: start + 365 * 86_400_000, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
  const rootText = envelopeText(await signEnvelope(signed, [rootKey]));
  await memory.change(async (tx) => {
    await tx.updateFiles.putUpdateFile({ channel: CHANNEL, role: 'root', version: 1, text: rootText, storedAt: start, expiresAt: expiresMs(signed.expires) });
  });
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const app = await createApp({
    content,
    storage,
    gateway: createSimulatorGateway({ storage: memory, publicBaseUrl: 'http://origin.test', clock }),
    clock,
    logger: quiet,
    version: { current: () => '2.6.2' },
    voterSecret,
    publicBaseUrl: 'http://origin.test',
    updates: { signer: online, timestampMaxAge },
  });
  return {
    app,
    rootText,
    async get(path, headers) {
      handling = true;
      try {
        return await app.handle({ method: 'GET', path, headers, clientIp: '198.51.100.7' });
      } finally {
        handling = false;
      }
    },
    storageCallsInRequests: () => calls,
    publish: (release) => memory.change(async (tx) => void (await tx.releases.publishRelease(release))),
    async halt(version, at, reason) {
      const halted = await memory.change((tx) => tx.releases.haltRelease(version, at, reason));
      if (halted === null) throw new Error(`simulate: ${version} could not be halted`);
    },
    refresh: () => app.refreshReleases(),
  };
}
