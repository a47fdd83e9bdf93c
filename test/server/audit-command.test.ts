/**
 * `converter-site-api audit list` as an operator types it, against the operator listener of a server on a
 * real socket with named tokens: who changed what as a table and as --json, the filters and pages of
 * GET /audit, --help, and the exit codes 1, 64 and 78.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADA, GRACE, NAMED_TOKENS, OPERATOR_TOKEN, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { runCommand } from '../_cli.ts';
import { runCli } from '../_spawn.ts';

const MSI = 'https://downloads.example.com/LegacySheetConverter-2.5.0-x64.msi';

const test = suite<{ running: OperatorServer }>('audit command');

test.before(async (context) => {
  const running = await startOperatorServer({ operatorTokens: NAMED_TOKENS });
  context.running = running;
  const as = (token: string, requestId: string, path: string, json: unknown) =>
    running.call(path, { method: 'POST', json, headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId } });
  assert.is((await as(ADA, 'r-1', '/releases', { version: '2.5.0', msiUrl: MSI, rolloutPercent: 10 })).status, 201);
  assert.is((await as(GRACE, 'r-2', '/releases/2.5.0/rollout', { rolloutPercent: 50 })).status, 200);
  assert.is((await as(OPERATOR_TOKEN, 'r-3', '/roadmap', { title: 'Quattro Pro charts', category: 'formats' })).status, 201);
  await running.server.storage.change((tx) =>
    tx.audit.record({
      at: running.server.clock.now(),
      action: 'order.refunded',
      target: 'cs_1 charge.refunded',
      requestId: 'r-4',
      actor: null,
    })
  );
});
test.after(({ running }) => running.close());

/** The command in process (test/_cli.ts); `program` is the program itself, for its help and exit codes. */
const audit = (args: string[], env: Record<string, string>) => runCommand(['audit', ...args], env);
const program = (args: string[], env: Record<string, string>) => runCli(['audit', ...args], env);

test('list: a table of who changed what (- when no name was recorded), the filters, --json with the next page', async ({ running }) => {
  const env = { OPERATOR_URL: running.url, OPERATOR_TOKEN: GRACE };
  const at = new Date(running.server.clock.now()).toISOString();
  const [all, ada, releases, page, json, target] = await Promise.all([
    audit(['list'], env),
    audit(['list', '--actor', 'ada'], env),
    audit(['list', '--action', 'release.'], env),
    audit(['list', '--limit', '2'], env),
    audit(['list', '--limit', '1', '--before', '3', '--json'], env),
    audit(['list', '--target', 'charge'], env),
  ]);
  assert.is(all.code, 0, all.stderr);
  const roadmapTarget = all.stdout.split('\n')[2]!.split(/ {2,}/)[4]!;
  assert.equal(all.stdout.split('\n').map((line) => line.split(/ {2,}/)), [
    ['ID', 'AT', 'ACTOR', 'ACTION', 'TARGET', 'REQUEST'],
    ['4', at, '-', 'order.refunded', 'cs_1 charge.refunded', 'r-4'],
    ['3', at, 'operator', 'roadmap.created', roadmapTarget, 'r-3'],
    ['2', at, 'grace', 'release.rollout', '2.5.0 at 50%', 'r-2'],
    ['1', at, 'ada', 'release.published', '2.5.0 at 10%', 'r-1'],
    [''],
  ]);
  assert.is(all.stderr, '');
  assert.equal(ada.stdout.split('\n').slice(1, -1).map((line) => line.split(/ {2,}/)[0]), ['1']);
  assert.equal(releases.stdout.split('\n').slice(1, -1).map((line) => line.split(/ {2,}/)[0]), ['2', '1']);
  assert.equal(target.stdout.split('\n').slice(1, -1).map((line) => line.split(/ {2,}/)[0]), ['4']);
  assert.equal(page.stdout.split('\n').slice(1, -1).map((line) => line.split(/ {2,}/)[0]), ['4', '3']);
  assert.is(page.stderr, 'older changes: add --before 3\n');
  assert.is(json.code, 0);
  assert.equal(JSON.parse(json.stdout), {
    entries: [{ id: 2, at, actor: 'grace', action: 'release.rollout', target: '2.5.0 at 50%', requestId: 'r-2' }],
    next: 2,
  });
});

test("--help; a refused filter exits 1 with the API's words; usage mistakes 64; no OPERATOR_URL 78; a token of nobody 1", async ({ running }) => {
  const env = { OPERATOR_URL: running.url, OPERATOR_TOKEN: ADA };
  const [help, bad, none, extra, flag, noUrl, nobody] = await Promise.all([
    program(['--help'], {}),
    audit(['list', '--actor', 'Ada'], env),
    program([], env),
    audit(['list', 'more'], env),
    audit(['list', '--who', 'ada'], env),
    program(['list'], { OPERATOR_TOKEN: ADA }),
    audit(['list'], { OPERATOR_URL: running.url, OPERATOR_TOKEN: `${ADA.slice(0, -1)}x` }),
  ]);
  assert.is(help.code, 0);
  assert.match(help.stdout, 'usage: converter-site-api audit list [options]');
  assert.match(help.stdout, '--action <prefix>');
  assert.is(bad.code, 1);
  assert.is(
    bad.stderr,
    'converter-site-api audit: Field "actor" must be an operator\'s name: a lower-case letter, then up to 31 lower-case letters, digits or hyphens. (invalid_request; 400)\n' +
      'Fix the request body or query as the message says; /openapi.json describes every field.\n',
  );
  assert.equal([none.code, extra.code, flag.code], [64, 64, 64]);
  assert.match(none.stderr, 'say what to do: list');
  assert.match(flag.stderr, "Unknown option '--who'");
  assert.is(noUrl.code, 78);
  assert.match(noUrl.stderr, 'OPERATOR_URL is not set');
  assert.is(nobody.code, 1);
  assert.match(nobody.stderr, '(forbidden; 403)');
});

test.run();
