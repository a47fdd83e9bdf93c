/**
 * A scenario's releases, published through the operator API of the benchmarked server before its load
 * (memory storage keeps releases only inside the process).
 *
 * @module
 */
import { generateSigningKey } from '../core/licensing/license.ts';
import { buildRoot, createTufSigner, envelopeText, signEnvelope, type TufKey } from '../core/tuf/index.ts';
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

/**
 * Sets up a server's update files as an operator would (docs/operating.md "Setting up the update files"):
 * reads its online key, signs root 1 with a root key made here, publishes it, and waits until the server
 * serves its signed timestamp (its refresh signs within a second). After the releases, so that the first
 * targets list them.
 *
 * @param operatorUrl The operator listener.
 * @param publicUrl The public listener, where the files are served.
 */
export async function publishUpdateFiles(operatorUrl: string | undefined, publicUrl: string): Promise<void> {
  if (!operatorUrl) throw new Error('the server has no operator listener (OPERATOR_PORT)');
  const headers = { authorization: `Bearer ${BENCH_OPERATOR_TOKEN}`, 'content-type': 'application/json' };
  const status = (await (await fetch(`${operatorUrl}/update-files/stable`, { headers })).json()) as { onlineKey: TufKey | null };
  if (!status.onlineKey) throw new Error('the server has no online key for its update files');
  const rootKey = await createTufSigner(await generateSigningKey());
  const signed = await buildRoot({
    version: 1,
    expires: Date.now() + 365 * 86_400_000,
    rootKeys: [rootKey.key],
    rootThreshold: 1,
    onlineKey: status.onlineKey,
  });
  const answer = await fetch(`${operatorUrl}/update-roots/stable`, { method: 'POST', headers, body: envelopeText(await signEnvelope(signed, [rootKey])) });
  if (answer.status !== 201) throw new Error(`publishing root 1 answered ${answer.status}: ${await answer.text()}`);
  // The server's refresh signs within a second: wait for it, on the real clock (a benchmark, not a test).
  while ((await fetch(`${publicUrl}/updates/stable/timestamp.json`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
}
