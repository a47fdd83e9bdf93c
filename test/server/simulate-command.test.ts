/**
 * `converter-site-api simulate updates` in process (server/cli/simulate.ts): 1,000 installs for 3 simulated
 * days (the whole scenario) end in the one line of figures, each bar holding; the same seed repeats the
 * run; a client whose bucket is computed over another seed (an internal option, never a flag) makes the
 * equality figure, and only it, fail with exit 1; and the usage errors exit 64. A run's cost is mostly its
 * simulated time (the origin refreshes every simulated minute, whatever the installs), so one run holds
 * the whole scenario, and the others, through the internal `hours`, its first 16 hours: both lines
 * published, and the hotfix's first step reached. The 1,000,000-install figures are docs/performance.md's.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type CommandRun, runCommand } from '../_cli.ts';
import type { SimulationInternals } from '../../server/simulate/updates.ts';
import { runSimulateCommand } from '../../server/cli/simulate.ts';
import { cohortBucket } from '../../core/tuf/cohort.ts';

const FINAL = new RegExp(
  [
    /^installs (?<installs>[\d,]+), (?:days (?<days>\d+)|hours (?<hours>\d+))/,
    / cache hit ratio (?<hit>\d+\.\d{4}) % \(bar >= 99\.99 %(?<applies> applies from 1,000,000 installs)?\)/,
    / origin requests (?<origin>[\d,]+) \((?<perHour>\d+\.\d) per simulated hour, bound (?<bound>[\d,]+) whatever the installs\)/,
    / database statements per check (?<db>\d+(?:\.\d+)?)/,
    / installs of the halted release after the halt (?<halted>\d+)/,
    / first-5 % cohorts overlap (?<overlap>\d+\.\d\d) % of (?<cohort>[\d,]+) \(chance 5 % ± (?<error>\d+\.\d\d) %\)/,
    / 2\.7\.0 first-step clients in 2\.7\.1 first step (?<inHotfix>[\d,]+)\/(?<staged>[\d,]+)/,
    / client rule equal to the server's model (?<equal>yes|no) \((?<agreed>[\d,]+)\/(?<polls>[\d,]+) polls\)/,
    / (?<verdict>every bar holds|FAILED: .+)$/,
  ].map((part) => part.source).join(';'),
);

const number = (text: string | undefined) => Number((text ?? 'NaN').replace(/,/g, ''));

function figures(stdout: string) {
  const lines = stdout.trimEnd().split('\n');
  const match = FINAL.exec(lines.at(-1)!);
  assert.ok(match?.groups, `the last line has every figure in order:\n${lines.at(-1)}`);
  return { lines, figures: match!.groups! };
}

/** `simulate <args>` with test hooks: what it printed and its exit code. */
async function simulate(args: string[], internals: SimulationInternals): Promise<CommandRun> {
  const run = { code: 0, stdout: '', stderr: '' };
  run.code = await runSimulateCommand(args, { stdout: (text) => void (run.stdout += text), stderr: (text) => void (run.stderr += text) }, internals);
  return run;
}

/** The scenario's first 16 hours: 2.7.0 and 2.6.3 in their first step, and 2.7.1 (at +14 h) in its own. */
const FIRST_HOURS = 16;

test('1,000 installs for 3 days: the scenario, then one line with each figure, every bar holding (exit 0)', async () => {
  const run = await runCommand(['simulate', 'updates', '--installs', '1000', '--days', '3'], {});
  assert.is(run.code, 0, run.stdout + run.stderr);
  const { lines, figures: f } = figures(run.stdout);
  assert.ok(lines.length >= 5, 'lines describing the scenario come first');
  assert.match(lines[0]!, /^simulate updates: 1,000 installs/);
  assert.match(run.stdout, /^scenario: /m);
  assert.is(number(f['installs']), 1000);
  assert.is(number(f['days']), 3);
  assert.ok(f['applies'], "at 1,000 installs the 99.99 % bar does not apply: the origin's share is about 60 requests an hour of 1,000");
  assert.ok(number(f['hit']) > 94, `hit ratio ${f['hit']} %: the cache answers all but about 60 of the 1,000 polls an hour`);
  assert.ok(number(f['origin']) <= number(f['bound']), `origin ${f['origin']} within ${f['bound']}`);
  assert.ok(number(f['perHour']) <= 62, 'about one revalidation per max-age (60 s), plus the new files');
  assert.is(number(f['db']), 0);
  assert.is(number(f['halted']), 0);
  assert.ok(Math.abs(number(f['overlap']) - 5) <= 4 * number(f['error']), `${f['overlap']} % within sampling error of 5 %`);
  assert.ok(number(f['staged']) > 0);
  assert.is(f['inHotfix'], f['staged']);
  assert.is(f['equal'], 'yes');
  assert.is(number(f['polls']), 1000 * 72);
  assert.is(f['agreed'], f['polls']);
  assert.is(f['verdict'], 'every bar holds');
  assert.match(run.stdout, /0 verification failures, 0 rollbacks refused, 0 polls on expired files/);
});

test('the same seed repeats the run line for line; another seed draws other installs', async () => {
  const args = ['updates', '--installs', '300', '--days', '3'];
  const hours = { hours: FIRST_HOURS };
  const [a, b, c] = [await simulate(args, hours), await simulate(args, hours), await simulate([...args, '--seed', 'other'], hours)];
  assert.is(figures(a.stdout).figures['hours'], String(FIRST_HOURS));
  assert.is(a.code, 0, a.stdout);
  assert.is(b.stdout, a.stdout);
  assert.is.not(c.stdout, a.stdout);
  assert.is(c.code, 0, c.stdout);
});

test('a client rule that buckets over another seed: the equality figure fails, and only it (exit 1)', async () => {
  const otherSeed = (seed: string, id: string) => cohortBucket(`${seed}00`, id);
  const out = await simulate(['updates', '--installs', '100', '--days', '3'], { clientBucket: otherSeed, hours: FIRST_HOURS });
  assert.is(out.code, 1);
  const { figures: f } = figures(out.stdout);
  assert.is(f['equal'], 'no');
  assert.ok(number(f['agreed']) < number(f['polls']));
  assert.is(f['verdict'], 'FAILED: client rule equal to the server model');
  assert.match(out.stdout, /^first disagreement: install [A-Za-z0-9_-]{22} at /m);
});

const AUTOPILOT =
  /^installs (?<installs>[\d,]+), ramp (?<share>\d+) %, days (?<days>\d+); regression (?<x>\d+)x (?<regression>not halted in \d+ days|halted at \+\d+ h \d\d min); 10 networks, (?<minted>[\d,]+) minted ids (?<attack>not halted in \d+ days|halted at \+\d+ h \d\d min); (?<verdict>every bar holds|FAILED: .+)$/;

test("autopilot: 20x 2.7.0's bug rate in a 25 % ramp of 4,000 installs halts it by install id; 10 networks 12 h in do not; an hour in they do", async () => {
  const args = ['simulate', 'autopilot', '--installs', '4000', '--share', '25', '--days', '2'];
  const run = await runCommand([...args, '--regression', '20', '--attack-after', '720'], {});
  const lines = run.stdout.trimEnd().split('\n');
  const f = AUTOPILOT.exec(lines.at(-1)!)?.groups;
  assert.ok(f, `the last line has every figure:\n${lines.at(-1)}`);
  assert.equal([f['installs'], f['share'], f['days'], f['x'], f['minted']], ['4,000', '25', '2', '20', '1,000']);
  assert.match(f['regression']!, /^halted at /);
  assert.match(
    run.stdout,
    /^regression run \(2\.8\.0 at 20x 2\.7\.0's rate\): halted at \+\d+ h \d\d min, [\d,]+ requests: Apps on the update files, counted by install id: 2\.8\.0: /m,
  );
  // 12 hours in, 2.7.0 is read over its first 12 hours, installs and reports alike: 10 networks of some 500 installs
  // so far are no significant excess over it. (Read as its whole first day of installs against 12 hours of its
  // reports, its rate looked half what it was, and they halted the ramp at +12 h 00 min.)
  assert.is(f['attack'], 'not halted in 2 days');
  assert.is(f['verdict'], 'every bar holds');
  assert.is(run.code, 0, run.stdout);
  assert.is((await runCommand([...args, '--regression', '20', '--attack-after', '720'], {})).stdout, run.stdout, 'the same seed, the same run');
  // An hour in, the ramp has seen some 40 installs: 10 reporting networks among them are a rate a hundred times
  // 2.7.0's at the same age, and halt it (docs/releases.md: in the first hours of a small step, 10 networks can).
  // 1x is no regression: not above the rule's factor, it does not halt.
  const early = await runCommand([...args, '--regression', '1', '--attack-after', '60'], {});
  const e = AUTOPILOT.exec(early.stdout.trimEnd().split('\n').at(-1)!)?.groups;
  assert.equal([e?.['regression'], e?.['attack'], e?.['verdict']], [
    'not halted in 2 days',
    'halted at +1 h 00 min',
    'FAILED: 10 networks with minted install ids do not',
  ]);
  assert.match(
    early.stdout,
    /^regression run \(2\.8\.0 at 1x 2\.7\.0's rate, not above the rule's factor 3: its null hypothesis\): not halted in 2 days, [\d,]+ requests: \(the rule's figures at the end\) 2\.8\.0: /m,
  );
  assert.match(
    early.stdout,
    /^attack run .*: halted at \+1 h 00 min, [\d,]+ requests: Apps on the update files, counted by install id: 2\.8\.0: 10 reporting clients from 10 networks, of \d\d installs on its first day/m,
  );
  assert.is(early.code, 1);
});

test('usage: what to simulate, the ranges of --installs and --days, and --help', async () => {
  for (
    const [args, message] of [
      [[], /say what to simulate: updates/],
      [['versions'], /unknown simulation "versions"/],
      [['updates', '--installs', '5'], /--installs must be a whole number from 100 to 10000000/],
      [['updates', '--days', '2'], /--days must be a whole number from 3 to 28/],
      [['updates', '--seed', ''], /--seed must be 1 to 100 characters/],
      [['updates', '--rate', '3'], /Unknown option '--rate'/],
      [['updates', '--regression', '3'], /--regression is an option of simulate autopilot/],
      [['autopilot', '--share', '60'], /--share must be a whole number from 1 to 50/],
      [['autopilot', '--installs', '100'], /--installs must be a whole number from 1000 to 1000000/],
    ] as const
  ) {
    const run = await runCommand(['simulate', ...args], {});
    assert.is(run.code, 64, args.join(' '));
    assert.match(run.stderr, message);
  }
  const help = await runCommand(['simulate', '--help'], {});
  assert.is(help.code, 0);
  assert.match(help.stdout, /^usage: converter-site-api simulate updates/);
  assert.match((await runCommand(['--help'], {})).stdout, /simulate {4}simulate the update files at scale/);
});

test.run();
