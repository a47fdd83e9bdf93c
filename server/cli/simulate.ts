/**
 * `converter-site-api simulate updates --installs N [--days D] [--seed S]`: the update files at internet
 * scale, in process on a simulated clock (server/simulate/updates.ts; docs/performance.md "Simulating the
 * update files at scale"). Prints the scenario and its counts, then one line with each figure; exits 0
 * when every bar holds, 1 naming those that did not.
 *
 * @module
 */
import { MIN_DAYS, simulateUpdates, type SimulationInternals } from '../simulate/updates.ts';
import { type Command, EXIT, type Io, parseCommandLine, UsageError } from './command.ts';

const HELP = `usage: converter-site-api simulate updates [--installs <n>] [--days <d>] [--seed <text>]

Simulates the update files of channel stable at scale, in this process and on a simulated clock (no
network, no waiting): the app signs and serves them from memory storage, a shared HTTP cache (RFC 9111)
stands in front of it, and <n> installs poll timestamp.json through it every hour, verify what changed
as a TUF client does, decide with the package's cohort rule, and revalidate the timestamp at the origin
before each install. The scenario: two lines, a ramp of 5, 25 and 100 % a day apart, a hotfix of the
staged release, one halt. Ends with one line of figures: cache hit ratio, origin requests (and per
simulated hour), database statements per check, installs of the halted release after the halt, the two
lines' first-5 % cohorts overlap, the staged release's first step within its hotfix's, and whether the
client rule equals the server's model at every poll. 1,000,000 installs take about 6 minutes and 300 MB.

options:
  --installs <n>   simulated installs (1000000 by default; 100 to 10000000)
  --days <d>       simulated days (7 by default; ${MIN_DAYS} to 28: the scenario spans ${MIN_DAYS} days)
  --seed <text>    the seed of install ids and poll times (1 by default): a run repeats with its seed

exit codes: 0 every bar holds, 1 a bar failed (named on the last line), 64 usage error
`;

const FLAGS = { installs: { type: 'string' }, days: { type: 'string' }, seed: { type: 'string' } } as const;

function wholeOf(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const text = value.replace(/_/g, '');
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  }
  return Number(text);
}

/**
 * Runs the command.
 *
 * @param args The words after `simulate`.
 * @param io Where the figures and progress go.
 * @param internals Test hooks (a broken client rule), never flags.
 */
export async function runSimulateCommand(args: string[], io: Io, internals: SimulationInternals = {}): Promise<number> {
  const { values, positionals } = parseCommandLine(args, FLAGS, 1);
  if (positionals[0] !== 'updates') {
    throw new UsageError(
      positionals[0] === undefined ? 'say what to simulate: updates' : `unknown simulation ${JSON.stringify(positionals[0])}; the one there is: updates`,
    );
  }
  const installs = wholeOf(values.installs, 'installs', 1_000_000, 100, 10_000_000);
  const days = wholeOf(values.days, 'days', 7, MIN_DAYS, 28);
  const seed = values.seed ?? '1';
  if (seed.length === 0 || seed.length > 100) throw new UsageError('--seed must be 1 to 100 characters');
  const started = performance.now();
  const result = await simulateUpdates({ installs, days, seed }, {
    progress: (line) => io.stderr(`simulate: ${line} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`),
    ...internals,
  });
  io.stdout(`${result.lines.join('\n')}\n${result.finalLine}\n`);
  return result.bars.every((bar) => bar.ok) ? EXIT.ok : EXIT.failed;
}

export const simulate: Command = {
  name: 'simulate',
  summary: 'simulate the update files at scale: installs, a cache, a ramp, a hotfix, a halt',
  help: HELP,
  run: (args: string[], io: Io) => runSimulateCommand(args, io),
};
