/**
 * `simulate updates`: a week of update checks by a million installs, in process and on a simulated clock
 * (issue 54, "Measured"). The real app signs and serves the update files of channel `stable`; a shared
 * HTTP cache (http-cache.ts, RFC 9111) stands in front of it; each install polls `timestamp.json` through
 * the cache every hour at an offset of its own, verifies what changed the way a TUF client does (pinned
 * to root 1; each distinct file's signatures checked once, the verdict kept by its bytes, as a client
 * keeps its last good files), decides with the package's rule (core/tuf/cohort.ts) and, when offered a
 * release that is not halted, revalidates the timestamp at the origin (bypassing the cache) before it
 * installs. Beside the clients, a model of the server's intent computed independently (node:crypto
 * SHA-256 buckets, the scenario's own schedules) says at every poll which release each install should be
 * offered; the two must agree everywhere.
 *
 * The scenario (times from the start, 2026-12-07T00:00Z): every install on 2.6.2 (line 2.6, at 100 %);
 * +2 h 2.7.0 (line 2.7) ramps 5 %, 25 %, 100 % a day apart; +3 h 2.6.3 (line 2.6) ramps the same way;
 * +14 h 2.7.1, the hotfix of 2.7.0, ramps from its publication on the same schedule; +27 h 20 min 2.6.3
 * is halted, 20 minutes into its 25 % step. Installs move to what they install, so by the end they are on
 * both lines.
 *
 * @module
 */
import { createHash, createHmac } from 'node:crypto';
import { canonicalJson } from '../../core/tuf/canonical-json.ts';
import { chooseTargetByBucket, cohortBucket, TIMESTAMP_LIFETIME_MS } from '../../core/tuf/cohort.ts';
import type { ReleaseTarget } from '../../core/tuf/feed.ts';
import { sha256Hex, verifyTufSignature } from '../../core/tuf/keys.ts';
import { expiresMs, type RootSigned } from '../../core/tuf/metadata.ts';
import { type CacheAnswer, createSharedCache } from './http-cache.ts';
import { CHANNEL, createSimOrigin } from './origin.ts';
import { seededPrng } from './prng.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When the simulation starts. */
export const SIM_START = Date.UTC(2026, 11, 7);
/** The fewest days that hold the whole scenario (2.7.1 reaches 100 % at +62 h). */
export const MIN_DAYS = 3;
/** The timestamp's max-age, seconds (the app's default). */
export const TIMESTAMP_MAX_AGE = 60;
/** How often the simulated origin refreshes (signs what is due), besides right after each release change. */
const REFRESH_EVERY_MS = MINUTE;

/** A release of the scenario, as the model knows it (not read back from the app). */
interface ScenarioRelease {
  version: string;
  line: 0 | 1;
  publishedAt: number;
  /** [at, basis points] in time order. */
  steps: [number, number][];
  haltedAt: number | null;
}

const LINES = ['2.6', '2.7'] as const;
/** The ramp of each staged release, in basis points: 5 %, 25 %, 100 %. */
const RAMP = [500, 2500, 10000];

function scenario(start: number): ScenarioRelease[] {
  const ramped = (version: string, line: 0 | 1, at: number): ScenarioRelease => ({
    version,
    line,
    publishedAt: at,
    steps: RAMP.map((basisPoints, i) => [at + i * DAY, basisPoints]),
    haltedAt: null,
  });
  const old = start - 30 * DAY;
  const baseline: ScenarioRelease = { version: '2.6.2', line: 0, publishedAt: old, steps: [[old, 10000]], haltedAt: null };
  const halted: ScenarioRelease = { ...ramped('2.6.3', 0, start + 3 * HOUR), haltedAt: start + 27 * HOUR + 20 * MINUTE };
  return [baseline, halted, ramped('2.7.0', 1, start + 2 * HOUR), ramped('2.7.1', 1, start + 14 * HOUR)];
}

/** The options of one run. */
export interface SimulationOptions {
  installs: number;
  days: number;
  seed: string;
}

/** What tests may change, never a flag of the command. */
export interface SimulationInternals {
  /** The clients' bucket function (`cohortBucket` by default): a broken one shows the equality figure fail. */
  clientBucket?: (seedHex: string, installId: string) => Promise<number>;
  /** Progress lines (stderr). */
  progress?: (line: string) => void;
  /**
   * Simulated hours in place of `days` whole days: a test's shorter run, for what the scenario's first hours
   * hold (its later steps, and the halt at +27 h, are not reached).
   */
  hours?: number;
}

/** One bar of the run: its name, whether it held and how it reads. */
export interface Bar {
  name: string;
  ok: boolean;
}

/** The figures of a run. */
export interface SimulationResult {
  /** The lines describing the scenario and the detailed counts, printed before the final line. */
  lines: string[];
  /** The one line with each figure. */
  finalLine: string;
  bars: Bar[];
}

/** A timestamp a client may hold once verified, with the snapshot and targets it names. */
interface VerifiedState {
  version: number;
  etag: string | null;
  /** Its signing time: `expires` less the timestamp lifetime. */
  signedAt: number;
  /** The earliest `expires` of timestamp, snapshot and targets. */
  expiresAt: number;
  snapshotVersion: number;
  targetsVersion: number;
  targets: VerifiedTargets;
}

interface VerifiedTargets {
  index: number;
  targets: Record<string, ReleaseTarget>;
  /** Every step time and halt time of its targets, sorted: between two, every schedule's basis points are constant. */
  boundaries: number[];
  /** The scenario rank of each target name's version. */
  rankOf: Map<string, number>;
  /** The ranks of the halted targets. */
  halted: Set<number>;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** base64url without padding of 16 bytes: 22 characters. */
const idOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The model's bucket: the big-endian uint64 of the first 8 bytes of SHA-256(seed || id), mod 10000, with node:crypto. */
function modelBucket(seed: Buffer, id: string): number {
  const digest = createHash('sha256').update(seed).update(id, 'utf8').digest();
  // (hi * 2^32 + lo) mod 10000, with 2^32 mod 10000 = 7296.
  return ((digest.readUInt32BE(0) % 10000) * 7296 + (digest.readUInt32BE(4) % 10000)) % 10000;
}

/** The model's seed of a line: what the server derives from its voter secret (core/updates/publisher.ts cohortSeeds). */
const modelSeed = (voterSecret: string, line: string) =>
  createHmac('sha256', voterSecret).update(`converter-site-api update cohort seed\n${line}`).digest().subarray(0, 16);

const percent = (x: number, digits: number) => `${(x * 100).toFixed(digits)} %`;
const whole = (x: number) => x.toLocaleString('en-US');

/**
 * Runs the simulation.
 *
 * @param options Installs, days and the seed.
 * @param internals Test hooks.
 */
export async function simulateUpdates(options: SimulationOptions, internals: SimulationInternals = {}): Promise<SimulationResult> {
  const { installs: n, days } = options;
  const progress = internals.progress ?? (() => {});
  const clientBucket = internals.clientBucket ?? cohortBucket;
  const prng = seededPrng(options.seed);
  const voterSecret = Buffer.from(prng.bytes(32)).toString('base64url');
  let now = SIM_START;
  const clock = { now: () => now };
  const releases = scenario(SIM_START);
  const ranked = [...releases].sort((a, b) => {
    const fa = a.version.split('.').map(Number), fb = b.version.split('.').map(Number);
    for (let i = 0; i < Math.max(fa.length, fb.length); i++) if ((fa[i] ?? 0) !== (fb[i] ?? 0)) return (fa[i] ?? 0) - (fb[i] ?? 0);
    return 0;
  });
  const rankOfVersion = new Map(ranked.map((release, rank) => [release.version, rank]));
  const versions = ranked.map((release) => release.version);
  const modelDescending = [...ranked].reverse().map((release) => ({ ...release, rank: rankOfVersion.get(release.version)! }));
  const rank = (version: string) => rankOfVersion.get(version)!;

  // The installs: ids, poll offsets within the hour, and the model's buckets per line (independent of the client code).
  const ids: string[] = new Array(n);
  const offset = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    ids[i] = idOf(prng.bytes(16));
    offset[i] = prng.below(HOUR);
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => offset[a]! - offset[b]!);
  const modelBuckets = LINES.map((line) => {
    const seed = modelSeed(voterSecret, line);
    const buckets = new Uint16Array(n);
    for (let i = 0; i < n; i++) buckets[i] = modelBucket(seed, ids[i]!);
    return buckets;
  });
  progress(`${whole(n)} installs drawn`);

  // The origin and the cache in front of it.
  const origin = await createSimOrigin(clock, voterSecret, TIMESTAMP_MAX_AGE);
  for (const release of releases.filter((r) => r.publishedAt < SIM_START)) await origin.publish(newRelease(release));
  await origin.refresh();
  const base = `/updates/${CHANNEL}/`;
  const cache = createSharedCache((path, tag) => origin.get(path, tag === null ? {} : { 'if-none-match': tag }));
  const TS_PATH = `${base}timestamp.json`;

  // The client's verifier: root 1 pinned; each distinct file verified once, the verdict kept by its bytes.
  const root = JSON.parse(origin.rootText).signed as RootSigned;
  const verifyEnvelope = async (body: Uint8Array, role: 'timestamp' | 'snapshot' | 'targets') => {
    const envelope = JSON.parse(decoder.decode(body)) as {
      signed: { _type: string; version: number; expires: string };
      signatures: { keyid: string; sig: string }[];
    };
    if (envelope.signed._type !== role) throw new Error(`${role}: _type is ${envelope.signed._type}`);
    const bytes = encoder.encode(canonicalJson(envelope.signed));
    const trusted = root.roles[role];
    let valid = 0;
    for (const signature of envelope.signatures) {
      const key = trusted.keyids.includes(signature.keyid) ? root.keys[signature.keyid] : undefined;
      if (key !== undefined && (await verifyTufSignature(key, bytes, signature.sig))) valid++;
    }
    if (valid < trusted.threshold) throw new Error(`${role} ${envelope.signed.version}: ${valid} valid signatures of ${trusted.threshold}`);
    return envelope.signed;
  };
  const matches = async (body: Uint8Array, meta: { version: number; length: number; hashes: { sha256: string } }) =>
    body.length === meta.length && (await sha256Hex(body)) === meta.hashes.sha256;

  const states: VerifiedState[] = [];
  const stateOfBody = new WeakMap<Uint8Array, number>();
  const targetsOfBody = new WeakMap<Uint8Array, VerifiedTargets>();
  const targetsTable: VerifiedTargets[] = [];
  const clientBuckets = new Map<string, Uint16Array>();
  let verificationFailures = 0;

  /** Fetches a versioned file through the cache; null when it cannot be had. */
  const throughCache = async (path: string, t: number): Promise<Uint8Array | null> => {
    const entry = cache.fresh(path, t);
    if (entry !== null) {
      cache.hit();
      return entry.body;
    }
    const answer = await cache.fetch(path, t, null);
    return answer.status === 200 ? answer.body : null;
  };

  const buckets = async (seed: string) => {
    const kept = clientBuckets.get(seed);
    if (kept !== undefined) return kept;
    const made = new Uint16Array(n);
    const BATCH = 4096;
    for (let from = 0; from < n; from += BATCH) {
      const part = await Promise.all(ids.slice(from, from + BATCH).map((id) => clientBucket(seed, id)));
      made.set(part, from);
    }
    clientBuckets.set(seed, made);
    progress(`line seed ${seed.slice(0, 8)}...: ${whole(n)} client buckets computed (cohortBucket)`);
    return made;
  };

  /** Verifies the timestamp's chain the first time these bytes are seen; the state index, or -1. */
  const verifyTimestamp = async (body: Uint8Array, etag: string | null, t: number): Promise<number> => {
    const known = stateOfBody.get(body);
    if (known !== undefined) return known;
    let index = -1;
    try {
      const timestamp = (await verifyEnvelope(body, 'timestamp')) as unknown as {
        version: number;
        expires: string;
        meta: Record<string, { version: number; length: number; hashes: { sha256: string } }>;
      };
      const snapshotMeta = timestamp.meta['snapshot.json']!;
      const snapshotBody = await throughCache(`${base}${snapshotMeta.version}.snapshot.json`, t);
      if (snapshotBody === null || !(await matches(snapshotBody, snapshotMeta))) throw new Error('snapshot does not match the timestamp');
      const snapshot = (await verifyEnvelope(snapshotBody, 'snapshot')) as unknown as {
        version: number;
        expires: string;
        meta: Record<string, { version: number; length: number; hashes: { sha256: string } }>;
      };
      if (snapshot.version !== snapshotMeta.version) throw new Error('snapshot version is not the one the timestamp names');
      const targetsMeta = snapshot.meta['targets.json']!;
      const targetsBody = await throughCache(`${base}${targetsMeta.version}.targets.json`, t);
      if (targetsBody === null || !(await matches(targetsBody, targetsMeta))) throw new Error('targets do not match the snapshot');
      let verified = targetsOfBody.get(targetsBody);
      const targetsSigned = (await verifyEnvelope(targetsBody, 'targets')) as unknown as {
        version: number;
        expires: string;
        targets: Record<string, ReleaseTarget>;
      };
      if (targetsSigned.version !== targetsMeta.version) throw new Error('targets version is not the one the snapshot names');
      if (verified === undefined) {
        const times = new Set<number>();
        const rankOf = new Map<string, number>();
        const halted = new Set<number>();
        for (const [name, target] of Object.entries(targetsSigned.targets)) {
          for (const step of target.custom.schedule) times.add(Date.parse(step.at));
          if (target.custom.haltedAt !== null) times.add(Date.parse(target.custom.haltedAt));
          const r = rankOfVersion.get(target.custom.version);
          if (r === undefined) throw new Error(`targets list ${target.custom.version}, which the scenario never published`);
          rankOf.set(name, r);
          if (target.custom.haltedAt !== null) halted.add(r);
          await buckets(target.custom.seed);
        }
        verified = { index: targetsTable.length, targets: targetsSigned.targets, boundaries: [...times].sort((a, b) => a - b), rankOf, halted };
        targetsTable.push(verified);
        targetsOfBody.set(targetsBody, verified);
      }
      const expires = expiresMs(timestamp.expires);
      index = states.length;
      states.push({
        version: timestamp.version,
        etag,
        signedAt: expires - TIMESTAMP_LIFETIME_MS,
        expiresAt: Math.min(expires, expiresMs(snapshot.expires), expiresMs(targetsSigned.expires)),
        snapshotVersion: snapshot.version,
        targetsVersion: targetsSigned.version,
        targets: verified,
      });
    } catch (error) {
      verificationFailures++;
      progress(`verification failed: ${(error as Error).message}`);
    }
    stateOfBody.set(body, index);
    return index;
  };

  // Per install: the state it trusts, what it has installed, its last decision and the context it was made in.
  const trusted = new Int32Array(n).fill(-1);
  const installed = new Uint8Array(n).fill(rank('2.6.2'));
  const decidedIn = new Int32Array(n).fill(-1);
  const decision = new Int8Array(n);
  const firstOf270 = new Uint8Array(n);
  const firstOf271 = new Uint8Array(n);
  const r270 = rank('2.7.0'), r271 = rank('2.7.1');
  const s270 = releases.find((r) => r.version === '2.7.0')!.steps, s271 = releases.find((r) => r.version === '2.7.1')!.steps;

  const counts = {
    polls: 0,
    compared: 0,
    mismatches: 0,
    rollbacksRefused: 0,
    staleRefused: 0,
    chooserCalls: 0,
    preInstall: 0,
    preInstallNotModified: 0,
    refusedHalted: 0,
    haltedAfterHalt: 0,
    installsBy: new Array<number>(versions.length).fill(0),
  };
  let firstMismatch: string | null = null;

  /** The client's move to a newer verified state; false when it refuses it (rollback). */
  const adopt = async (i: number, next: number, t: number): Promise<boolean> => {
    const current = trusted[i]!;
    const to = states[next]!;
    if (current >= 0) {
      const from = states[current]!;
      if (to.version < from.version || to.snapshotVersion < from.snapshotVersion || to.targetsVersion < from.targetsVersion) {
        counts.rollbacksRefused++;
        return false;
      }
      // A client fetches snapshot and targets only when the versions it holds are not those named.
      if (to.snapshotVersion !== from.snapshotVersion) await throughCache(`${base}${to.snapshotVersion}.snapshot.json`, t);
      if (to.targetsVersion !== from.targetsVersion) await throughCache(`${base}${to.targetsVersion}.targets.json`, t);
    } else {
      await throughCache(`${base}${to.snapshotVersion}.snapshot.json`, t);
      await throughCache(`${base}${to.targetsVersion}.targets.json`, t);
    }
    trusted[i] = next;
    return true;
  };

  /** The client's choice: the rank offered, or -1. */
  const choose = (i: number, state: VerifiedState, evalAt: number, installedRank: number): number => {
    counts.chooserCalls++;
    const chosen = chooseTargetByBucket(state.targets.targets, versions[installedRank]!, (seed) => clientBuckets.get(seed)![i]!, evalAt);
    return chosen === null ? -1 : state.targets.rankOf.get(chosen.name)!;
  };

  /** The server's model: the rank the install should be offered, from the releases as they stood when the client's timestamp was signed. */
  const expected = (i: number, asOf: number, evalAt: number, installedRank: number): number => {
    for (const release of modelDescending) {
      if (release.rank <= installedRank) return -1;
      if (release.publishedAt > asOf) continue;
      const at = release.haltedAt !== null && release.haltedAt <= asOf ? Math.min(evalAt, release.haltedAt) : evalAt;
      let basisPoints = 0;
      for (const [stepAt, points] of release.steps) if (stepAt <= at) basisPoints = points;
      if (basisPoints > 0 && modelBuckets[release.line]![i]! < basisPoints) return release.rank;
    }
    return -1;
  };

  /** The pre-install check: a fresh timestamp from the origin; installs what it still offers, unless halted. */
  const install = async (i: number, t: number) => {
    counts.preInstall++;
    const held = states[trusted[i]!]!;
    const answer = await origin.get(TS_PATH, { 'cache-control': 'no-cache', ...(held.etag === null ? {} : { 'if-none-match': held.etag }) });
    let state = held;
    if (answer.status === 304) counts.preInstallNotModified++;
    else if (answer.status === 200) {
      const body = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body!;
      const next = await verifyTimestamp(body, typeof answer.headers['etag'] === 'string' ? answer.headers['etag'] : null, t);
      if (next < 0 || !(await adopt(i, next, t))) return;
      state = states[next]!;
    } else return;
    const evalAt = Math.max(t, state.signedAt);
    if (t >= state.expiresAt) return;
    const chosen = choose(i, state, evalAt, installed[i]!);
    if (chosen < 0) return;
    if (state.targets.halted.has(chosen)) {
      counts.refusedHalted++;
      return;
    }
    installed[i] = chosen;
    counts.installsBy[chosen] = counts.installsBy[chosen]! + 1;
    const truth = releases.find((r) => r.version === versions[chosen])!;
    if (truth.haltedAt !== null && truth.haltedAt <= t) counts.haltedAfterHalt++;
  };

  // The timeline: release changes, and the origin's refresh every minute.
  const events = releases
    .filter((r) => r.publishedAt >= SIM_START)
    .map((r) => ({ at: r.publishedAt, run: () => origin.publish(newRelease(r)), what: `publish ${r.version}` }))
    .concat(
      releases.filter((r) => r.haltedAt !== null).map((r) => ({
        at: r.haltedAt!,
        run: () => origin.halt(r.version, r.haltedAt!, 'simulated halt'),
        what: `halt ${r.version}`,
      })),
    )
    .sort((a, b) => a.at - b.at);
  let nextEvent = 0;
  let nextRefresh = SIM_START + REFRESH_EVERY_MS;
  const catchUp = async (t: number) => {
    while (true) {
      const eventAt = events[nextEvent]?.at ?? Infinity;
      const at = Math.min(eventAt, nextRefresh);
      if (at > t) return;
      now = at;
      if (eventAt <= nextRefresh) {
        await events[nextEvent++]!.run();
      } else nextRefresh += REFRESH_EVERY_MS;
      await origin.refresh();
    }
  };
  const nextAction = () => Math.min(events[nextEvent]?.at ?? Infinity, nextRefresh);

  const hours = internals.hours ?? days * 24;
  for (let h = 0; h < hours; h++) {
    const hourStart = SIM_START + h * HOUR;
    let pending = nextAction();
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const t = hourStart + offset[i]!;
      if (t >= pending) {
        await catchUp(t);
        pending = nextAction();
      }
      now = t;
      counts.polls++;
      // The poll: timestamp.json through the cache, conditional on what the install holds.
      const current = trusted[i]!;
      const heldTag = current >= 0 ? states[current]!.etag : null;
      let answer: CacheAnswer | null = null;
      const entry = cache.fresh(TS_PATH, t);
      if (entry !== null) {
        cache.hit();
        if (entry.etag !== heldTag || heldTag === null) answer = { status: 200, body: entry.body, etag: entry.etag };
      } else {
        const fetched = await cache.fetch(TS_PATH, t, heldTag);
        if (fetched.status === 200) answer = fetched;
      }
      if (answer !== null && answer.body !== null) {
        const next = stateOfBody.get(answer.body) ?? (await verifyTimestamp(answer.body, answer.etag, t));
        if (next >= 0 && next !== current) await adopt(i, next, t);
      }
      const s = trusted[i]!;
      if (s < 0) continue;
      const state = states[s]!;
      if (t >= state.expiresAt) {
        counts.staleRefused++;
        continue;
      }
      // The decision, made again only when its context changed: targets, the schedules' step, or the version installed.
      const evalAt = t > state.signedAt ? t : state.signedAt;
      const bounds = state.targets.boundaries;
      let epoch = 0;
      while (epoch < bounds.length && bounds[epoch]! <= evalAt) epoch++;
      const installedRank = installed[i]!;
      const context = (state.targets.index << 12) | (epoch << 4) | installedRank;
      let chosen: number;
      if (decidedIn[i] === context) chosen = decision[i]!;
      else {
        chosen = choose(i, state, evalAt, installedRank);
        decidedIn[i] = context;
        decision[i] = chosen;
      }
      // The server's model, at every poll.
      counts.compared++;
      const wanted = expected(i, state.signedAt, evalAt, installedRank);
      if (wanted !== chosen) {
        counts.mismatches++;
        firstMismatch ??= `install ${ids[i]} at ${new Date(t).toISOString()} on ${versions[installedRank]}: client ${
          chosen < 0 ? 'stays' : versions[chosen]
        }, model ${wanted < 0 ? 'stays' : versions[wanted]}`;
      }
      if (chosen === r270 && evalAt >= s270[0]![0] && evalAt < s270[1]![0]) firstOf270[i] = 1;
      if (chosen === r271 && evalAt >= s271[0]![0] && evalAt < s271[1]![0]) firstOf271[i] = 1;
      if (chosen >= 0 && !state.targets.halted.has(chosen)) await install(i, t);
    }
    if ((h + 1) % 24 === 0 || h + 1 === hours) progress(`day ${Math.ceil((h + 1) / 24)} of ${Math.ceil(hours / 24)} simulated`);
  }
  await catchUp(SIM_START + hours * HOUR);

  // The figures.
  const c = cache.counts;
  const hitRatio = c.hits / c.requests;
  const timestampsSigned = states.length === 0 ? 0 : Math.max(...states.map((state) => state.version));
  const bound = Math.ceil((hours * HOUR) / (TIMESTAMP_MAX_AGE * 1000)) + 1 + 2 * timestampsSigned;
  const dbPerCheck = origin.storageCallsInRequests() / counts.polls;
  const lineSeeds = LINES.map((line) => {
    for (const t of targetsTable) for (const target of Object.values(t.targets)) if (target.custom.version.startsWith(`${line}.`)) return target.custom.seed;
    return null;
  });
  const b26 = lineSeeds[0] === null ? null : clientBuckets.get(lineSeeds[0]!)!, b27 = lineSeeds[1] === null ? null : clientBuckets.get(lineSeeds[1]!)!;
  const first26 = releases.find((r) => r.version === '2.6.3')!.steps[0]![1], first27 = s270[0]![1];
  let inFirst27 = 0, inBoth = 0;
  if (b26 && b27) {
    for (let i = 0; i < n; i++) {
      if (b27[i]! < first27) {
        inFirst27++;
        if (b26[i]! < first26) inBoth++;
      }
    }
  }
  const chance = first26 / 10000;
  const overlap = inFirst27 === 0 ? NaN : inBoth / inFirst27;
  const sampling = Math.sqrt((chance * (1 - chance)) / Math.max(inFirst27, 1));
  let staged = 0, inHotfix = 0;
  for (let i = 0; i < n; i++) {
    if (firstOf270[i] === 1) {
      staged++;
      if (firstOf271[i] === 1) inHotfix++;
    }
  }

  const hitBarApplies = n >= 1_000_000;
  const span = hours % 24 === 0 ? `${hours / 24} simulated days` : `${hours} simulated hours`;
  const bars: Bar[] = [
    { name: 'cache hit ratio', ok: !hitBarApplies || hitRatio >= 0.9999 },
    { name: 'origin requests', ok: c.originRequests <= bound },
    { name: 'database statements per check', ok: dbPerCheck === 0 },
    { name: 'installs of the halted release after the halt', ok: counts.haltedAfterHalt === 0 },
    { name: 'first-5 % cohorts overlap', ok: Number.isFinite(overlap) && Math.abs(overlap - chance) <= 4 * sampling },
    { name: 'staged release clients in its hotfix first step', ok: staged > 0 && inHotfix === staged },
    { name: 'client rule equal to the server model', ok: counts.mismatches === 0 && counts.compared === counts.polls },
    { name: 'files verified', ok: verificationFailures === 0 && counts.rollbacksRefused === 0 && counts.staleRefused === 0 },
  ];
  const failed = bars.filter((bar) => !bar.ok).map((bar) => bar.name);
  const installsText = versions.map((version, r) => `${version} ${whole(counts.installsBy[r]!)}`).join(', ');
  const lines = [
    `simulate updates: ${whole(n)} installs (ids: 16 bytes from seed ${
      JSON.stringify(options.seed)
    }), each polling /updates/${CHANNEL}/timestamp.json hourly at an offset of its own, for ${span} from ${new Date(SIM_START).toISOString()}`,
    `scenario: all on 2.6.2 (line 2.6, 100 %); +2 h 2.7.0 (line 2.7) and +3 h 2.6.3 (line 2.6) ramp 5/25/100 % a day apart; +14 h hotfix 2.7.1 ramps the same from its publication; +27 h 20 min 2.6.3 halted (its 25 % step)`,
    `origin: the app on memory storage, root 1 offline, signing with an online key on each refresh (every simulated minute and at each release change); a shared RFC 9111 cache in front (timestamp max-age ${TIMESTAMP_MAX_AGE} s, versioned files immutable)`,
    `clients: pinned to root 1, verifying each new timestamp, snapshot and targets (signatures once per distinct file), deciding with chooseTargetByBucket on cohortBucket buckets, and revalidating the timestamp at the origin (no-cache, bypassing the cache) before each install; an install is taken to be instant`,
    `cache: ${whole(c.requests)} requests, ${whole(c.hits)} hits, ${whole(c.revalidations)} revalidations (${whole(c.notModified)} answered 304), ${
      whole(c.misses)
    } misses; ${timestampsSigned} timestamps signed`,
    `installs: ${installsText}; ${whole(counts.preInstall)} pre-install revalidations at the origin (${
      whole(counts.preInstallNotModified)
    } answered 304, one per install started, not cache traffic), ${whole(counts.refusedHalted)} refused there because the fresh files say halted`,
    `client: ${whole(counts.chooserCalls)} decisions computed for ${
      whole(counts.polls)
    } polls (again only when targets, step or installed version changed); ${verificationFailures} verification failures, ${counts.rollbacksRefused} rollbacks refused, ${counts.staleRefused} polls on expired files`,
    ...(firstMismatch === null ? [] : [`first disagreement: ${firstMismatch}`]),
  ];
  const finalLine = [
    `installs ${whole(n)}, ${hours % 24 === 0 ? `days ${hours / 24}` : `hours ${hours}`}`,
    `cache hit ratio ${percent(hitRatio, 4)} (bar >= 99.99 %${hitBarApplies ? '' : ' applies from 1,000,000 installs'})`,
    `origin requests ${whole(c.originRequests)} (${(c.originRequests / hours).toFixed(1)} per simulated hour, bound ${whole(bound)} whatever the installs)`,
    `database statements per check ${dbPerCheck}`,
    `installs of the halted release after the halt ${counts.haltedAfterHalt}`,
    `first-5 % cohorts overlap ${Number.isFinite(overlap) ? percent(overlap, 2) : 'n/a'} of ${whole(inFirst27)} (chance ${percent(chance, 0)} ± ${
      percent(sampling, 2)
    })`,
    `2.7.0 first-step clients in 2.7.1 first step ${whole(inHotfix)}/${whole(staged)}`,
    `client rule equal to the server's model ${counts.mismatches === 0 ? 'yes' : 'no'} (${whole(counts.compared - counts.mismatches)}/${
      whole(counts.polls)
    } polls)`,
    failed.length === 0 ? 'every bar holds' : `FAILED: ${failed.join('; ')}`,
  ].join('; ');
  return { lines, finalLine, bars };
}

/** A scenario release as the operator publishes it. */
function newRelease(release: ScenarioRelease) {
  const bytes = encoder.encode(`the installer of ${release.version}\n`);
  const ramped = release.steps.length > 1;
  return {
    version: release.version,
    msiUrl: `https://downloads.example.com/LegacySheetConverter-${release.version}-x64.msi`,
    notesUrl: null,
    rolloutBasisPoints: ramped ? RAMP[0]! : 10000,
    publishedAt: release.publishedAt,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
    ...(ramped ? { ramp: { basisPoints: [...RAMP], everyMs: DAY, startAt: release.publishedAt } } : {}),
  };
}
