/**
 * The resend timing trial (issue 42): can the time of `POST /api/v1/licenses/resend` tell an address with
 * orders from one without? 250 + 250 first-of-the-day tries, in random order, in process through
 * `app.handle` (no socket), each on a fresh day of the injected clock (so every counter it meets is new,
 * as for an attacker's first guess of the day). The resend step runs between tries, outside the timing,
 * as the server's mail loop would. Prints, per storage, the medians and the AUC: the chance that a known
 * address's try took longer than an unknown one's (0.5: no difference; the target is under 0.55), and the
 * best a single request's time can guess (50 %: a coin).
 *
 * Not a test: run it by hand, once, on a quiet machine.
 * Usage: node --import tsx bench/resend-timing.ts [storages]   (comma-separated; memory,pglite by default)
 *
 * @module
 */
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { openPgliteStorage } from '../adapters/pglite/index.ts';
import type { CoreRequest } from '../core/http/http.ts';
import type { Storage } from '../core/ports/ports.ts';
import { bodyJson, createTestApp, type ManualClock, manualClock } from '../test/_setup.ts';

const TRIES = 250;
const WARM_UP = 50;
const BUYERS = 50;
const DAY_MS = 86_400_000;

/** Mann-Whitney's AUC: P(a try of `slow` took longer than one of `fast`), ties counting half. */
function auc(known: readonly number[], unknown: readonly number[]): number {
  let wins = 0;
  for (const k of known) for (const u of unknown) wins += k > u ? 1 : k === u ? 0.5 : 0;
  return wins / (known.length * unknown.length);
}

/** The best share of tries a single threshold on the time classifies right (either direction). */
function bestGuess(known: readonly number[], unknown: readonly number[]): number {
  const all = [...known.map((t) => ({ t, known: true })), ...unknown.map((t) => ({ t, known: false }))].sort((a, b) => a.t - b.t);
  let best = 0.5;
  let knownBelow = 0;
  let unknownBelow = 0;
  for (const { known: isKnown } of all) {
    if (isKnown) knownBelow++;
    else unknownBelow++;
    // "At most this long: unknown" and the other way round.
    const right = (unknownBelow + (known.length - knownBelow)) / all.length;
    best = Math.max(best, right, 1 - right);
  }
  return best;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A fresh storage on `clock`, and how to close it. */
async function open(name: string, clock: ManualClock): Promise<{ storage: Storage; close(): Promise<void> }> {
  if (name === 'memory') return { storage: createMemoryStorage({ clock }), close: async () => {} };
  if (name === 'pglite') {
    const { storage } = await openPgliteStorage({ exclusive: { clock } });
    return { storage, close: () => storage.close?.() ?? Promise.resolve() };
  }
  throw new Error(`unknown storage ${name}: memory or pglite`);
}

async function trial(name: string): Promise<void> {
  const clock = manualClock();
  const opened = await open(name, clock);
  const { app } = await createTestApp({ storage: opened.storage, clock });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  for (let i = 0; i < BUYERS; i++) {
    // A client of its own per buyer: one client's 150 requests would pass the public quota (120 a minute).
    const clientIp = `192.0.2.${i + 1}`;
    const created = await app.handle({
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: '{"product":"standard"}',
      clientIp,
    });
    const { sessionId } = bodyJson(created) as { sessionId: string };
    await app.handle({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: `email=buyer-${i}%40example.com`, clientIp });
    const status = await app.handle({ method: 'GET', path: '/api/v1/checkout/status', query: `session_id=${sessionId}`, headers: {}, clientIp });
    if (typeof (bodyJson(status) as { standardLicenseKey?: unknown }).standardLicenseKey !== 'string') throw new Error(`buyer ${i} has no key`);
  }
  await app.processResendRequests();

  // Known and unknown tries interleaved at random, each on a day of its own.
  const kinds = [...Array<boolean>(TRIES).fill(true), ...Array<boolean>(TRIES).fill(false)].sort(() => Math.random() - 0.5);
  const times = { known: [] as number[], unknown: [] as number[] };
  let knownTries = 0;
  for (let i = -WARM_UP; i < kinds.length; i++) {
    const known = i < 0 ? i % 2 === 0 : kinds[i]!;
    clock.advance(DAY_MS);
    const n = i + WARM_UP;
    const email = known ? `Buyer-${n % BUYERS}@Example.com` : `nobody-${n}@example.com`;
    const request: CoreRequest = {
      method: 'POST',
      path: '/api/v1/licenses/resend',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
      clientIp: `10.0.${n >> 8}.${n & 255}`,
    };
    const started = performance.now();
    const answer = await app.handle(request);
    const took = performance.now() - started;
    if (answer.status !== 202) throw new Error(`try ${n} answered ${answer.status}`);
    if (i >= 0) (known ? times.known : times.unknown).push(took);
    if (known) knownTries++;
    await app.processResendRequests();
  }
  // The known tries did find their orders: one resend mail each, in the background.
  const mailed = (await opened.storage.mail.list({ limit: 10_000 })).filter((m) => m.kind === 'resend').length;
  if (mailed !== knownTries) throw new Error(`${mailed} resend mails for ${knownTries} known tries`);
  await opened.close();
  const fixed = (ms: number) => `${ms.toFixed(3)} ms`;
  console.log(
    `${name}: ${TRIES} + ${TRIES} tries; median known ${fixed(median(times.known))}, unknown ${fixed(median(times.unknown))}; ` +
      `AUC ${auc(times.known, times.unknown).toFixed(3)}; a single request guesses right ${(100 * bestGuess(times.known, times.unknown)).toFixed(1)} %`,
  );
}

for (const name of (process.argv[2] ?? 'memory,pglite').split(',')) await trial(name);
