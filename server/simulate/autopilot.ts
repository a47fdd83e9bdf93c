/**
 * `simulate autopilot`: the halt rule's eyes on apps on the update files (issue 55), in process and on a
 * simulated clock. The real app over memory storage answers every request through `app.handle`: each install
 * pings POST /api/v1/installs once a day at an offset of its own and sends its bug reports with its install id;
 * the halt rule decides as it does in production (core/releases/release-watch.ts).
 *
 * The scenario (times from the start, 2026-12-07T00:00Z): every install on 2.7.0, published at 100 % at the
 * start, which each install reports a bug in with `baseRate` per 1,000 a day (once: the rule counts reporting
 * installs). A week later 2.8.0 ramps at `share` % (the installs whose cohort bucket, by the published rule, is
 * below it move to it within the hour), and its installs report a bug with `regression` times 2.7.0's rate. A
 * second run has no regression, and 10 networks (one /24 each) report from `minted` install ids minted inside
 * the ramp's cohort (the seeds are public), `attackAfterMinutes` into the ramp. Only the pings and reports the
 * rule reads are sent: 2.7.0's over its first days (the release before at the same age) and 2.8.0's over its
 * ramp's.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { createMemoryStorage, type MemoryStorage } from '../../adapters/memory/index.ts';
import { createSimulatorGateway } from '../../adapters/simulator/index.ts';
import { type App, createApp } from '../../core/app.ts';
import { createKeyedMac } from '../../core/clients/keyed-hash.ts';
import { daysRead, decideHalt, DEFAULT_HALT_RULE, type HaltDecision, haltWindows, previousOf } from '../../core/releases/halt-rule.ts';
import { installIdFigures } from '../../core/releases/install-figures.ts';
import { type SiteContent, SiteContentSchema } from '../../core/schemas/content.ts';
import { cohortBucket } from '../../core/tuf/cohort.ts';
import { cohortSeeds } from '../../core/updates/publisher.ts';
import { EXAMPLE_CONFIG } from '../config.ts';
import { seededPrng } from './prng.ts';
import type { Bar, SimulationResult } from './updates.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** When the simulation starts: 2.7.0's publication. */
export const AUTOPILOT_START = Date.UTC(2026, 11, 7);
/** 2.8.0's publication: a week later. */
const RAMP_AT = AUTOPILOT_START + 7 * DAY;
/** The networks of the attack. */
export const ATTACK_NETWORKS = 10;

/** The options of one run. */
export interface AutopilotOptions {
  installs: number;
  /** Days of 2.8.0's ramp simulated (and of 2.7.0's first days, the release before at the same age). */
  days: number;
  /** The ramp's step, in percent (2: 200 basis points). */
  share: number;
  /** How many times 2.7.0's bug rate 2.8.0 has. */
  regression: number;
  /** Installs that report a bug in 2.7.0, per 1,000 a day. */
  baseRate: number;
  /** Install ids the 10 networks mint inside the ramp's cohort, all told. */
  minted: number;
  /** When the 10 networks report, in minutes into the ramp. */
  attackAfterMinutes: number;
  seed: string;
}

/** One request the simulation sends: when, from where, and its JSON body. */
interface Sent {
  at: number;
  path: '/api/v1/installs' | '/api/v1/feedback';
  from: string;
  body: Record<string, unknown>;
}

/** What a run came to: the halt (when and why) or the rule's decision at the end. */
interface Outcome {
  haltedAt: number | null;
  reason: string;
  requests: number;
}

const whole = (x: number) => x.toLocaleString('en-US');
const after = (ms: number) => `+${Math.floor(ms / HOUR)} h ${String(Math.floor((ms % HOUR) / MINUTE)).padStart(2, '0')} min`;

/** An install's address: four installs on each /24 from 20.0.0.0 on, so the ramp's installs are spread over many networks. */
const addressOf = (i: number) => `${20 + Math.floor(i / 262_144)}.${Math.floor(i / 1024) % 256}.${Math.floor(i / 4) % 256}.${1 + (i % 4)}`;

function exampleContent(): SiteContent {
  const raw = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
  return v.parse(SiteContentSchema, { offer: raw['offer'], download: raw['download'], roadmap: raw['roadmap'] });
}

/** The app of one run, on its own clock and memory storage, with 2.7.0 published at the start. */
async function origin(voterSecret: string): Promise<{ app: App; storage: MemoryStorage; clock: { now(): number; set(ms: number): void } }> {
  let now = AUTOPILOT_START;
  const clock = { now: () => now, set: (ms: number) => void (now = ms) };
  const storage = createMemoryStorage({ clock, caps: { feedbackBytes: 1024 * 1024 * 1024 } });
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const app = await createApp({
    content: exampleContent(),
    storage,
    gateway: createSimulatorGateway({ storage, publicBaseUrl: 'http://origin.test', clock }),
    clock,
    logger: quiet,
    version: { current: () => '2.6.2' },
    voterSecret,
    publicBaseUrl: 'http://origin.test',
    rateLimit: { name: 'simulate', limit: 1e9, windowSeconds: 60 },
  });
  await storage.change(async (tx) => {
    await tx.releases.publishRelease({
      version: '2.7.0',
      msiUrl: 'https://downloads.example.com/2.7.0.msi',
      notesUrl: null,
      rolloutBasisPoints: 10000,
      publishedAt: now,
    });
  });
  await app.refreshReleases();
  return { app, storage, clock };
}

const ping = (at: number, from: string, version: string, installId: string): Sent => ({
  at,
  path: '/api/v1/installs',
  from,
  body: { channel: 'stable', version, installId },
});
const report = (at: number, from: string, appVersion: string, installId: string): Sent => ({
  at,
  path: '/api/v1/feedback',
  from,
  body: { type: 'bug_report', description: 'It crashes when I open a .wk3 file', appVersion, installId },
});

/**
 * Runs the simulation.
 *
 * @param options The scenario's figures.
 * @param progress Progress lines (stderr).
 */
export async function simulateAutopilot(options: AutopilotOptions, progress: (line: string) => void = () => {}): Promise<SimulationResult> {
  const { installs: n, days, share, regression, baseRate, minted, attackAfterMinutes } = options;
  const prng = seededPrng(options.seed);
  const voterSecret = Buffer.from(prng.bytes(32)).toString('base64url');
  const seed = cohortSeeds(createKeyedMac(voterSecret))('2.8');
  const basisPoints = Math.round(share * 100);
  const ids: string[] = [];
  const offset: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(Buffer.from(prng.bytes(16)).toString('base64url'));
    offset.push(prng.below(DAY));
  }
  const inRamp = (await Promise.all(ids.map((id) => cohortBucket(seed, id)))).map((bucket) => bucket < basisPoints);
  const cohort = inRamp.filter(Boolean).length;
  progress(`${whole(n)} installs drawn, ${whole(cohort)} in 2.8.0's ${share} % cohort`);

  /**
   * Reports at `perThousand` a day, once per install, at a uniform time of the day drawn; each stream from a
   * generator of its own, so that a run's figures do not move with another run's options.
   */
  const reports = (stream: string, who: readonly number[], from: number, perThousand: number, version: string): Sent[] => {
    const prng = seededPrng(`${options.seed}\n${stream}`);
    const sent: Sent[] = [];
    for (const i of who) {
      for (let d = 0; d < days; d++) {
        if (prng.next() / 4294967296 < perThousand / 1000) {
          sent.push(report(from + d * DAY + prng.below(DAY), addressOf(i), version, ids[i]!));
          break;
        }
      }
    }
    return sent;
  };
  const everyone = ids.map((_, i) => i);
  const rampers = everyone.filter((i) => inRamp[i]);
  const pings = (who: readonly number[], from: number, version: string): Sent[] =>
    who.flatMap((i) => Array.from({ length: days }, (_, d) => ping(from + d * DAY + offset[i]!, addressOf(i), version, ids[i]!)));
  // What both runs share: 2.7.0's first days, and 2.8.0's pings (its installs move within the hour, then ping daily).
  const before = [...pings(everyone, AUTOPILOT_START, '2.7.0'), ...reports('before', everyone, AUTOPILOT_START, baseRate, '2.7.0')];
  const ramp = pings(rampers, RAMP_AT, '2.8.0');

  // The attack: 10 /24s, install ids minted until `minted` of them are in the cohort, each reporting once.
  const attack: Sent[] = [];
  const minting = seededPrng(`${options.seed}\nminted`);
  let drawn = 0;
  while (attack.length < minted) {
    const id = Buffer.from(minting.bytes(16)).toString('base64url');
    drawn++;
    if ((await cohortBucket(seed, id)) >= basisPoints) continue;
    const k = attack.length;
    attack.push(report(RAMP_AT + attackAfterMinutes * MINUTE + k, `203.0.${k % ATTACK_NETWORKS}.${1 + (Math.floor(k / ATTACK_NETWORKS) % 254)}`, '2.8.0', id));
  }
  progress(`${whole(minted)} install ids minted in the cohort (of ${whole(drawn)} drawn)`);

  /** One run: every request in time order through app.handle; stops at the halt. */
  const run = async (name: string, sent: Sent[]): Promise<Outcome> => {
    const { app, storage, clock } = await origin(voterSecret);
    sent.sort((a, b) => a.at - b.at);
    let published = false;
    let requests = 0;
    for (const request of sent) {
      if (!published && request.at >= RAMP_AT) {
        clock.set(RAMP_AT);
        await storage.change(async (tx) => {
          await tx.releases.publishRelease({
            version: '2.8.0',
            msiUrl: 'https://downloads.example.com/2.8.0.msi',
            notesUrl: null,
            rolloutBasisPoints: Math.round(share * 100),
            publishedAt: RAMP_AT,
            ramp: { basisPoints: [Math.round(share * 100), 10000], everyMs: 30 * DAY, startAt: RAMP_AT },
          });
        });
        await app.refreshReleases();
        published = true;
      }
      clock.set(request.at);
      const answer = await app.handle({
        method: 'POST',
        path: request.path,
        query: undefined,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request.body),
        clientIp: request.from,
      });
      requests++;
      if (answer.status >= 300) throw new Error(`simulate: ${request.path} answered ${answer.status}`);
      if (request.path === '/api/v1/feedback' && request.body['appVersion'] === '2.8.0') {
        const released = (await storage.releases.listReleases()).find((r) => r.version === '2.8.0');
        if (released?.haltedAt != null) return { haltedAt: released.haltedAt, reason: released.haltReason ?? '', requests };
      }
    }
    progress(`${name}: ${whole(requests)} requests, no halt`);
    return { haltedAt: null, reason: (await decisionAt(storage, clock.now())).reason, requests };
  };

  const regressed = await run('regression', [...before, ...ramp, ...reports('regression', rampers, RAMP_AT, regression * baseRate, '2.8.0')]);
  const attacked = await run('attack', [...before, ...ramp, ...reports('attack', rampers, RAMP_AT, baseRate, '2.8.0'), ...attack]);

  // The rule halts on evidence of more than `factor` times the release before's rate: a regression of at most
  // that many times is its null hypothesis, and should not halt (but at the rule's chance of a false halt).
  const { factor } = DEFAULT_HALT_RULE;
  const bars: Bar[] = [
    regression > factor
      ? { name: `a regression of ${regression}x in ${share} % of installs halts the ramp`, ok: regressed.haltedAt !== null }
      : { name: `a regression of ${regression}x, not above the rule's factor ${factor}, does not halt the ramp`, ok: regressed.haltedAt === null },
    { name: `${ATTACK_NETWORKS} networks with minted install ids do not`, ok: attacked.haltedAt === null },
  ];
  const outcome = (o: Outcome) => (o.haltedAt === null ? `not halted in ${days} days` : `halted at ${after(o.haltedAt - RAMP_AT)}`);
  const lines = [
    `simulate autopilot: ${whole(n)} installs on the update files (ids from seed ${
      JSON.stringify(options.seed)
    }), each pinging POST /api/v1/installs once a day`,
    `scenario: 2.7.0 at 100 % from ${new Date(AUTOPILOT_START).toISOString()}, ${baseRate} of 1,000 installs a day reporting a bug in it; ` +
    `a week later 2.8.0 ramps at ${share} % (${whole(cohort)} installs by the cohort rule) for ${days} days`,
    `regression run (2.8.0 at ${regression}x 2.7.0's rate${regression > factor ? '' : `, not above the rule's factor ${factor}: its null hypothesis`}): ${
      outcome(regressed)
    }, ${whole(regressed.requests)} requests: ${regressed.reason}`,
    `attack run (no regression; ${ATTACK_NETWORKS} /24s reporting from ${
      whole(minted)
    } install ids minted in the cohort, ${attackAfterMinutes} min into the ramp): ` +
    `${outcome(attacked)}, ${whole(attacked.requests)} requests: ${attacked.reason}`,
  ];
  const failed = bars.filter((bar) => !bar.ok).map((bar) => bar.name);
  const finalLine = [
    `installs ${whole(n)}, ramp ${share} %, days ${days}`,
    `regression ${regression}x ${outcome(regressed)}`,
    `${ATTACK_NETWORKS} networks, ${whole(minted)} minted ids ${outcome(attacked)}`,
    failed.length === 0 ? 'every bar holds' : `FAILED: ${failed.join('; ')}`,
  ].join('; ');
  return { lines, finalLine, bars };
}

/** The rule's decision on the figures by install id at `now`, as the release watch reads them. */
async function decisionAt(storage: MemoryStorage, now: number): Promise<HaltDecision> {
  const releases = await storage.releases.listReleases();
  const release = releases.find((r) => r.version === '2.8.0')!;
  const windows = haltWindows(release, previousOf(release, releases), '2.6.2', now);
  const read = await installIdFigures(storage.installs, release.version, windows, daysRead(windows), null);
  const decision = decideHalt(release, windows, read, DEFAULT_HALT_RULE);
  return { ...decision, reason: `(the rule's figures at the end) ${decision.reason}` };
}
