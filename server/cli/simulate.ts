/**
 * `converter-site-api simulate updates --installs N [--days D] [--seed S]`: the update files at internet
 * scale, in process on a simulated clock (server/simulate/updates.ts; docs/performance.md "Simulating the
 * update files at scale"). `simulate autopilot`: the installs pings and bug reports of apps on the files and
 * the halt rule deciding on them (server/simulate/autopilot.ts; docs/releases.md "The autopilot, simulated").
 * Each prints the scenario and its counts, then one line with each figure; exits 0 when every bar holds, 1
 * naming those that did not.
 *
 * @module
 */
import { MIN_DAYS, simulateUpdates, type SimulationInternals } from '../simulate/updates.ts';
import { simulateAutopilot } from '../simulate/autopilot.ts';
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

usage: converter-site-api simulate autopilot [--installs <n>] [--days <d>] [--share <percent>] [--regression <x>]
       [--base-rate <per 1,000>] [--minted <n>] [--attack-after <minutes>] [--seed <text>]

Simulates the halt rule's eyes on apps on the update files (issue 55), in this process and on a simulated
clock: <n> installs on 2.7.0 ping POST /api/v1/installs once a day and report bugs with their install id;
a week on, 2.8.0 ramps at <percent> to the installs its cohort rule picks, with <x> times 2.7.0's bug
rate. A second run has no regression, and 10 networks report from <n> install ids minted in the ramp's
cohort. The bars: a regression above the halt rule's factor (3) halts the ramp, one not above it does
not (the rule halts only on evidence of more than factor times the release before's rate), and the 10
networks do not (in the first hours of a small step they can: docs/releases.md).

options:
  --installs <n>        installs on the files (100000 by default; 1000 to 1000000)
  --days <d>            days of the ramp simulated (3 by default; 1 to 14)
  --share <percent>     the ramp's step (2 by default; 1 to 50)
  --regression <x>      2.8.0's bug rate as a multiple of 2.7.0's (3 by default; 1 to 100)
  --base-rate <n>       installs reporting a bug in 2.7.0 per 1,000 a day (1 by default; 1 to 100)
  --minted <n>          install ids the 10 networks mint in the cohort (1000 by default; 10 to 1000000)
  --attack-after <m>    minutes into the ramp the 10 networks report (60 by default; 0 to 20160)
  --seed <text>         the seed of install ids and times (1 by default)

exit codes: 0 every bar holds, 1 a bar failed (named on the last line), 64 usage error
`;

const FLAGS = {
  installs: { type: 'string' },
  days: { type: 'string' },
  seed: { type: 'string' },
  share: { type: 'string' },
  regression: { type: 'string' },
  'base-rate': { type: 'string' },
  minted: { type: 'string' },
  'attack-after': { type: 'string' },
} as const;

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
  const what = positionals[0];
  if (what !== 'updates' && what !== 'autopilot') {
    throw new UsageError(
      what === undefined ? 'say what to simulate: updates or autopilot' : `unknown simulation ${JSON.stringify(what)}; those there are: updates, autopilot`,
    );
  }
  const seed = values.seed ?? '1';
  if (seed.length === 0 || seed.length > 100) throw new UsageError('--seed must be 1 to 100 characters');
  const autopilotOnly = (['share', 'regression', 'base-rate', 'minted', 'attack-after'] as const).find((flag) => values[flag] !== undefined);
  if (what === 'updates' && autopilotOnly !== undefined) throw new UsageError(`--${autopilotOnly} is an option of simulate autopilot`);
  const started = performance.now();
  const progress = (line: string) => io.stderr(`simulate: ${line} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  const result = what === 'autopilot'
    ? await simulateAutopilot({
      installs: wholeOf(values.installs, 'installs', 100_000, 1000, 1_000_000),
      days: wholeOf(values.days, 'days', 3, 1, 14),
      share: wholeOf(values.share, 'share', 2, 1, 50),
      regression: wholeOf(values.regression, 'regression', 3, 1, 100),
      baseRate: wholeOf(values['base-rate'], 'base-rate', 1, 1, 100),
      minted: wholeOf(values.minted, 'minted', 1000, 10, 1_000_000),
      attackAfterMinutes: wholeOf(values['attack-after'], 'attack-after', 60, 0, 20_160),
      seed,
    }, progress)
    : await simulateUpdates({
      installs: wholeOf(values.installs, 'installs', 1_000_000, 100, 10_000_000),
      days: wholeOf(values.days, 'days', 7, MIN_DAYS, 28),
      seed,
    }, { progress, ...internals });
  io.stdout(`${result.lines.join('\n')}\n${result.finalLine}\n`);
  return result.bars.every((bar) => bar.ok) ? EXIT.ok : EXIT.failed;
}

export const simulate: Command = {
  name: 'simulate',
  summary: 'simulate the update files at scale, and the halt rule on apps that use them',
  help: HELP,
  run: (args: string[], io: Io) => runSimulateCommand(args, io),
};
