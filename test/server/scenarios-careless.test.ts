/**
 * Every check the docs tell the desktop app to make has a scenario that only an app making it passes
 * (issue 53; docs/conformance.md "Which scenario catches which check"): the app of the docs' recipes,
 * with one check left out at a time, runs every scenario, and ends those the table names for that check
 * in another outcome than the one GET /scenarios promises.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createScenarioServer } from '../../server/scenarios/server.ts';
import { licenseCheck, read, type Send, updateCheck, updateFilesCheck, type UpdateFilesListed } from '../_scenario-app.ts';
import { manualClock } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';
import { APP_CHECKS, type AppCheck } from '../_update-signature.ts';

const BASE = 'http://127.0.0.1:8787';

interface Listed extends Partial<UpdateFilesListed> {
  name: string;
  check: 'update' | 'license' | 'update-files';
  outcome: string;
  licenseKey?: string;
}

/** The docs' table: for each check, the scenarios an app without it fails. */
function documentedTable(): Map<string, string[]> {
  const doc = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Which scenario catches which check'), doc.indexOf('## Client-side vectors'));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const row = /^\| `([a-z-]+)`: .*\| ([^|]+) \|$/.exec(line);
    if (row) rows.set(row[1]!, [...row[2]!.replace(/\(.*\)/, '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
  }
  return rows;
}

const clock = manualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
/**
 * One scenario server for every run: the checks only read (18 runs of at most 4 requests a scenario stay
 * within each scenario's quota of 120, the clock never moving), and building its 46 apps is the slow part.
 */
let shared: ReturnType<typeof createScenarioServer> | null = null;

/**
 * Each scenario's outcome for an app that leaves out `careless` (none: the app with every check). The update
 * files' scenarios are run by the app with every check only: the package's client leaves out none.
 */
async function outcomes(careless?: AppCheck): Promise<Map<string, string>> {
  const server = await (shared ??= createScenarioServer({ baseUrl: BASE, clock }));
  const now = Math.floor(clock.now() / 1000);
  const listing = JSON.parse((await read(await server.handle(new Request(`${BASE}/scenarios`), '127.0.0.1'))).body) as { scenarios: Listed[] };
  const ends = new Map<string, string>();
  for (const scenario of listing.scenarios) {
    if (careless !== undefined && scenario.check === 'update-files') continue;
    const send: Send = async (path, init) =>
      read(await server.handle(new Request(new URL(path.startsWith('http') ? path : `/scenario/${scenario.name}${path}`, BASE), init), '127.0.0.1'));
    // The update files are checked by the package's client, which leaves out no check.
    const outcome = scenario.check === 'update'
      ? await updateCheck(send, now, careless)
      : scenario.check === 'update-files'
      ? await updateFilesCheck(send, scenario as Listed & UpdateFilesListed)
      : await licenseCheck(send, now, scenario.licenseKey!, careless);
    ends.set(scenario.name, outcome);
  }
  return ends;
}

test('the table lists every check the test app can leave out, each with scenarios GET /scenarios has', async () => {
  const table = documentedTable();
  assert.equal([...table.keys()], [...APP_CHECKS]);
  const names = new Set((await outcomes()).keys());
  for (const [check, scenarios] of table) {
    assert.ok(scenarios.length > 0, check);
    for (const name of scenarios) assert.ok(names.has(name), `${check}: ${name}`);
  }
});

test('the app with every check ends each scenario in its promised outcome', async () => {
  const server = await (shared ??= createScenarioServer({ baseUrl: BASE, clock }));
  const promised = new Map(server.scenarios.map((s) => [s.name, s.outcome as string]));
  const ends = new Map([...(await outcomes())].map(([name, outcome]) => [name, outcome.split(/[ :]/)[0]!]));
  assert.equal(ends, promised);
});

test('an app without one check fails the scenarios the table names for it', async () => {
  const table = documentedTable();
  const correct = await outcomes();
  for (const check of APP_CHECKS) {
    const careless = await outcomes(check);
    const failed = [...careless].filter(([name, outcome]) => correct.get(name) !== outcome).map(([name]) => name);
    for (const name of table.get(check)!) {
      assert.ok(failed.includes(name), `without "${check}", ${name} ends in ${careless.get(name)}, as for an app that checks: the scenario does not catch it`);
    }
  }
});

test.run();
