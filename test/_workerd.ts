/**
 * Running a Worker entry (server/worker.ts by default) under workerd from npm, bundled as wrangler would
 * (see scripts/workerd.ts), with the variables wrangler.toml would set.
 */
import { type RunningWorkerd, startWorkerd as serveWorker } from '../scripts/workerd.ts';

/** The Worker's variables in the tests, as wrangler.toml would set them. */
export const WORKER_VARS = { PRODUCT_VERSION: '2.4.1', PUBLIC_BASE_URL: 'https://api.sheets.test' } as const;

/**
 * Starts a Worker under workerd.
 *
 * @param entry The Worker's entry file, relative to the project.
 * @returns The process and the base URL it serves.
 */
export async function startWorkerd(entry = 'server/worker.ts'): Promise<Pick<RunningWorkerd, 'child' | 'output' | 'stop'> & { baseUrl: string }> {
  const worker = await serveWorker({ entry }, WORKER_VARS);
  return { child: worker.child, output: worker.output, stop: worker.stop, baseUrl: worker.url };
}
