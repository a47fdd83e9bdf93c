/**
 * A scenario's releases, published through the operator API of the benchmarked server before its load
 * (memory storage keeps releases only inside the process).
 *
 * @module
 */
import type { BenchRelease } from './scenarios.ts';

/** The operator token of benchmarked servers that publish releases. */
export const BENCH_OPERATOR_TOKEN = 'bench-operator-token-'.padEnd(40, 'x');

/** The environment that gives the server an operator listener. */
export const OPERATOR_ENV = { OPERATOR_PORT: '0', OPERATOR_TOKEN: BENCH_OPERATOR_TOKEN };

/** The operator listener's address in a server's start-up log ("operator":"http://..."), if it has one. */
export function operatorUrlOf(output: string): string | undefined {
  return /"operator":"(http:\/\/[^"]+)"/.exec(output)?.[1];
}

/** The body of POST /releases for `release`: its fields and its installer's address. */
export function releaseBody(release: BenchRelease): string {
  return JSON.stringify({ msiUrl: `https://downloads.example.com/LegacySheetConverter-${release.version}-x64.msi`, ...release });
}

/** Publishes each release in order through the operator listener at `operatorUrl`; throws when the server refuses one. */
export async function publishReleases(operatorUrl: string | undefined, releases: readonly BenchRelease[]): Promise<void> {
  if (!operatorUrl) throw new Error('the server has no operator listener (OPERATOR_PORT)');
  for (const release of releases) {
    const answer = await fetch(`${operatorUrl}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: releaseBody(release),
    });
    if (answer.status !== 201) throw new Error(`publishing ${release.version} answered ${answer.status}: ${await answer.text()}`);
  }
}
