/**
 * What the benchmark sends: one entry per scenario of issue 6.
 */

/** Where client addresses come from: ~100,000 distinct ones, or one client that is over its quota. */
export type Clients = 'many' | 'one-over-quota';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** The path; `{n}` is replaced by the client's number (0 to 99,999), so each client asks another path. */
  path: string;
  body?: string;
  clients: Clients;
  /** Extra environment of the server for this scenario (the access log, metrics). */
  env?: Record<string, string>;
  /** The status every answer should have; 200 by default. */
  expect?: number;
  /**
   * Fields of the config file set over the shipped example's for this scenario (Node, Deno and Bun; the
   * Worker bundles its config).
   */
  config?: Record<string, unknown>;
  /** Which load generator sends it: the pre-serialized raw client by default, or wrk (bench/wrk-client.ts). */
  loader?: 'raw' | 'wrk';
  /** Releases published through the operator API before the load (bench/releases.ts), in order. */
  releases?: readonly BenchRelease[];
  /** The update files set up after the releases (a root published, bench/releases.ts publishUpdateFiles). */
  updateFiles?: true;
}

export interface BenchRelease {
  version: string;
  rolloutPercent: number;
  sha256?: string;
  size?: number;
  notesUrl?: string;
}

/** A release at 100 % and a newer one staged at 10 %, both with installer digests: every client gets a bucket. */
export const STAGED_RELEASES: readonly BenchRelease[] = [
  { version: '2.5.0', rolloutPercent: 100, sha256: 'ab'.repeat(32), size: 48_234_496 },
  { version: '2.6.0', rolloutPercent: 10, sha256: 'cd'.repeat(32), size: 48_300_032, notesUrl: 'https://www.example.com/releases/2.6.0' },
];

export const SCENARIOS: Scenario[] = [
  { name: 'GET pricing', method: 'GET', path: '/api/v1/pricing', clients: 'many' },
  // Issue 18: the same requests formatted anew each time, as wrk sends them (Host, X-Forwarded-For).
  { name: 'GET pricing, wrk', method: 'GET', path: '/api/v1/pricing', clients: 'many', loader: 'wrk' },
  { name: 'GET version', method: 'GET', path: '/api/v1/version', clients: 'many' },
  { name: 'GET roadmap', method: 'GET', path: '/api/v1/roadmap', clients: 'many' },
  { name: 'POST roadmap toggle', method: 'POST', path: '/api/v1/roadmap', body: '{"featureId":1}', clients: 'many' },
  {
    name: 'POST feedback',
    method: 'POST',
    path: '/api/v1/feedback',
    body: '{"description":"Please add Quattro Pro input","type":"feature_request","rating":4}',
    clients: 'many',
    expect: 201,
    // It measures storing feedback: at 15k a second the default daily total (64 MiB) would be used up
    // within the run, and the rest would measure 429 budget_exhausted. The limit itself costs the same.
    config: { feedbackBytesPerDay: 2 ** 40 },
  },
  { name: 'unknown path (404)', method: 'GET', path: '/api/v1/nope', clients: 'many', expect: 404 },
  // Issue 18: a flood of distinct unknown paths, which no cache of 404 answers can serve.
  { name: 'distinct unknown paths (404)', method: 'GET', path: '/api/v1/nope-{n}', clients: 'many', expect: 404 },
  { name: 'rate-limited client (429)', method: 'GET', path: '/api/v1/pricing', clients: 'one-over-quota', expect: 429 },
  // Issue 10: what the access log and the metrics cost on the hottest path.
  { name: 'GET pricing, access log on', method: 'GET', path: '/api/v1/pricing', clients: 'many', env: { LOG_REQUESTS: 'true' } },
  { name: 'GET pricing, metrics on', method: 'GET', path: '/api/v1/pricing', clients: 'many', env: { METRICS_PORT: '0' } },
  // Issue 31: update checks under a staged release (a bucket per client, two answers), each signed (RFC 9421).
  {
    name: 'GET version, staged release, signed, wrk',
    method: 'GET',
    path: '/api/v1/version',
    clients: 'many',
    loader: 'wrk',
    releases: STAGED_RELEASES,
  },
  // Issue 43: the installer redirect the app follows under the same staged release, signed: what the
  // signatures kept per window earn where nothing else keeps them (GET version also keeps headers per answer).
  {
    name: 'GET download, staged release, signed, wrk',
    method: 'GET',
    path: '/api/v1/download?force=1',
    clients: 'many',
    loader: 'wrk',
    expect: 302,
    releases: STAGED_RELEASES,
  },
  // Issue 54: the update files, what any cache in front keeps: no per-client work, so at least GET pricing's pace.
  {
    name: 'GET update timestamp',
    method: 'GET',
    path: '/updates/stable/timestamp.json',
    clients: 'many',
    releases: STAGED_RELEASES,
    updateFiles: true,
  },
  {
    name: 'GET versioned update file',
    method: 'GET',
    path: '/updates/stable/1.targets.json',
    clients: 'many',
    releases: STAGED_RELEASES,
    updateFiles: true,
  },
];

/** The n-th of ~100,000 distinct client addresses (10.x.y.z). */
export function clientAddress(n: number): string {
  const i = n % 100_000;
  return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
}
