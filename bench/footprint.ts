/**
 * What a server costs before it answers anything: resident memory once it idles after its start, and the
 * time from its spawn to its 'listening' line, on a new data directory and again on the existing one.
 */
import { type BenchProcess, peakRss } from './process.ts';

export interface Footprint {
  /** Seconds from spawn to 'listening' on a new data directory (PGlite: initdb included) and on restart. */
  firstStartS: number;
  restartS: number;
  /** Resident MB two seconds after 'listening', after each start. */
  firstIdleMb: number;
  restartIdleMb: number;
}

const idle = () => new Promise((resolve) => setTimeout(resolve, 2000));

/**
 * Starts a server twice on one storage (the second on what the first left) and measures both starts.
 *
 * @param start Starts the server on the storage (the same storage each time).
 */
export async function measureFootprint(start: () => Promise<BenchProcess>): Promise<Footprint> {
  const once = async () => {
    const begun = performance.now();
    const server = await start();
    const seconds = (performance.now() - begun) / 1000;
    await idle();
    const mb = peakRss(server.pid) / 2 ** 20;
    await server.stop();
    return { seconds, mb };
  };
  const first = await once();
  const again = await once();
  return { firstStartS: first.seconds, restartS: again.seconds, firstIdleMb: first.mb, restartIdleMb: again.mb };
}

/** Issue 11's targets for the default storage. */
const TARGETS: Record<string, { idleMb: number; peakMb: number; restartS: number }> = {
  pglite: { idleMb: 250, peakMb: 350, restartS: 1.5 },
};

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/**
 * The footprint as a line of the results, with the targets of the storage where it has some.
 *
 * @param storage The storage's name.
 * @param f The measured footprint.
 * @param peakMb The highest resident MB seen under the benchmark's scenarios on this storage.
 */
export function footprintNote(storage: string, f: Footprint, peakMb: number | undefined): string {
  const target = TARGETS[storage];
  const idleMb = Math.max(f.firstIdleMb, f.restartIdleMb);
  const mark = (text: string, ok: boolean | undefined) => (ok === undefined ? text : `${text}: ${verdict(ok)}`);
  return [
    `Footprint on ${storage}: start to 'listening' ${f.firstStartS.toFixed(2)} s on a new data directory, ${
      mark(`${f.restartS.toFixed(2)} s on the existing one${target ? ` (target < ${target.restartS} s)` : ''}`, target && f.restartS < target.restartS)
    };`,
    ` idle RSS ${f.firstIdleMb.toFixed(0)} MB after the first start, ${
      mark(`${f.restartIdleMb.toFixed(0)} MB after the restart${target ? ` (target <= ${target.idleMb} MB for both)` : ''}`, target && idleMb <= target.idleMb)
    }`,
    peakMb === undefined
      ? '.'
      : `; ${
        mark(`peak RSS under the scenarios ${peakMb.toFixed(0)} MB${target ? ` (target <= ${target.peakMb} MB)` : ''}`, target && peakMb <= target.peakMb)
      }.`,
  ].join('');
}
