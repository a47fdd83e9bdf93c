/**
 * `converter-site-api roadmap list --sort votes` as an operator types it, against the operator API: most
 * votes first, as GET /roadmap?sort=votes; a wrong --sort exits 64. `roadmap unmerge` undoes a merge, and
 * says why it cannot (409: exit 1 with the API's message). The program runs in process and the app answers
 * its calls in process (test/_cli.ts); test/server/operator-program.test.ts runs the program and its listener.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { inProcessOperatorListener, type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { runCommand } from '../_cli.ts';

interface Context {
  server: InProcessServer;
  operator: ReturnType<typeof inProcessOperatorListener>;
}

const test = suite<Context>('roadmap command', {} as Context);

test.before(async (context) => {
  context.server = await startInProcessServer({ operatorToken: OPERATOR_TOKEN });
  context.operator = inProcessOperatorListener(context.server.app);
});
test.after(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

/** Where the command finds the operator API: answered in process by the app (test/_cli.ts), never on the network. */
const OPERATOR_URL = 'http://operator.test';

/** `converter-site-api roadmap ...` in process, its operator API calls answered by `server`'s app. */
const roadmap = (args: string[], server: InProcessServer) =>
  runCommand(['roadmap', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: server.app.operator! });

test('roadmap list --sort votes: most votes first, the table and --json alike; a wrong --sort is a usage error (64)', async ({ server, operator }) => {
  const ids = (await operator.call('/roadmap').then((a) => a.json() as { features: { id: number }[] })).features.map((f) => f.id);
  const vote = await server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: ids[1] }),
  });
  assert.is(vote.status, 200);
  const [table, json, wrong, help] = await Promise.all([
    roadmap(['list', '--sort', 'votes'], server),
    roadmap(['list', '--sort', 'votes', '--json'], server),
    roadmap(['list', '--sort', 'title'], server),
    roadmap(['--help'], server),
  ]);
  assert.is(table.code, 0, table.stderr);
  const rows = table.stdout.trim().split('\n').slice(1).map((line) => Number(line.split(/ +/)[0]));
  assert.equal(rows, [ids[1], ids[0], ...ids.slice(2)]);
  assert.equal(JSON.parse(json.stdout), (await operator.call('/roadmap?sort=votes')).json());
  assert.equal([wrong.code, wrong.stderr.split('\n')[0]], [64, 'converter-site-api roadmap: --sort must be id or votes, not "title"']);
  assert.match(help.stdout, 'roadmap list [--sort id|votes]');
});

test('roadmap unmerge <id>: the duplicate shown again with its votes; a feature not merged is refused with the reason', async ({ server, operator }) => {
  const add = (title: string) =>
    operator.call('/roadmap', { method: 'POST', json: { title, category: 'formats' } }).then((a) => (a.json() as { id: number }).id);
  const [kept, duplicate] = [await add('Quattro Pro import'), await add('QPW files')];
  const vote = await server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: duplicate }),
  });
  assert.is(vote.status, 200);
  assert.is((await operator.call(`/roadmap/${duplicate}/merge`, { method: 'POST', json: { into: kept } })).status, 200);
  const undone = await roadmap(['unmerge', String(duplicate), '--json'], server);
  assert.is(undone.code, 0, undone.stderr);
  const answer = JSON.parse(undone.stdout) as {
    shown: { id: number; vote_count: number; visible: boolean };
    from: { id: number; vote_count: number };
    restoredVotes: number;
  };
  assert.equal([answer.shown.id, answer.shown.vote_count, answer.shown.visible, answer.from.id, answer.from.vote_count, answer.restoredVotes], [
    duplicate,
    1,
    true,
    kept,
    0,
    1,
  ]);
  const again = await roadmap(['unmerge', String(duplicate)], server);
  assert.is(again.code, 1);
  assert.match(again.stderr, `Feature ${duplicate} is not merged into another: there is no merge to undo.`);
});

test.run();
