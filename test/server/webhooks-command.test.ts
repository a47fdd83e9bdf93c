/**
 * `converter-site-api webhooks test|rotate-secret|replay-failed|delete` as an operator types them, against
 * the operator listener of a server on a real socket (the receiver is a loopback address nothing sends to
 * here: no delivery worker runs). Each answer is the API's, as a table or with --json.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOCAL_RECEIVERS, OPERATOR_TOKEN, type OperatorListener, startOperatorListener } from '../_operator.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { runCommand } from '../_cli.ts';
import { runCli } from '../_spawn.ts';

interface Context {
  server: TestServer;
  operator: OperatorListener;
}

const test = suite<Context>('webhooks command', {} as Context);
const HOOK = 'http://127.0.0.1:9/hook';

test.before(async (context) => {
  context.server = await startTestServer({ operatorToken: OPERATOR_TOKEN, webhookAddresses: LOCAL_RECEIVERS });
  context.operator = await startOperatorListener(context.server.app);
});
test.after(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

/** The command in process (test/_cli.ts); `program` is the program itself, a child process. */
const webhooks = (args: string[], operator: OperatorListener) => runCommand(['webhooks', ...args], { OPERATOR_URL: operator.url, OPERATOR_TOKEN });
const program = (args: string[], operator: OperatorListener) => runCli(['webhooks', ...args], { OPERATOR_URL: operator.url, OPERATOR_TOKEN });

test('test, rotate-secret, replay-failed and delete, each the API answer; wrong arguments are usage errors (64)', async ({ operator }) => {
  const added = (await operator.call('/webhooks', { method: 'POST', json: { url: HOOK } })).json() as { id: number };
  const id = String(added.id);
  const sent = await program(['test', id, '--json'], operator);
  assert.is(sent.code, 0, sent.stderr);
  assert.equal((({ type, state, endpointId }) => [type, state, endpointId])(JSON.parse(sent.stdout) as { type: string; state: string; endpointId: number }), [
    'webhook.test',
    'pending',
    added.id,
  ]);
  const rotated = await webhooks(['rotate-secret', id, '--grace-hours', '0'], operator);
  assert.is(rotated.code, 0, rotated.stderr);
  const [header, row] = rotated.stdout.trim().split('\n');
  assert.equal(header!.split(/ +/), ['ID', 'URL', 'SECRET', 'OLD', 'SECRET', 'UNTIL']);
  assert.match(row!, new RegExp(`^${id} +${HOOK} +whsec_\\S+ +- \\(ended\\)$`));
  const replayed = await webhooks(['replay-failed', '--endpoint', id, '--json'], operator);
  assert.equal([replayed.code, JSON.parse(replayed.stdout)], [0, { replayed: 0, remaining: 0 }]);
  const deleted = await webhooks(['delete', id], operator);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout.trim().split('\n')[1]!.split(/ +/), [id, HOOK, '1']);
  const gone = await webhooks(['delete', id], operator);
  assert.equal([gone.code, gone.stderr.includes(`No webhook endpoint has id ${id}.`)], [1, true]);
  const wrong = await webhooks(['rotate-secret', id, '--grace-hours', 'soon'], operator);
  assert.equal([wrong.code, wrong.stderr.split('\n')[0]], [64, 'converter-site-api webhooks: --grace-hours must be whole hours from 0 to 24, not "soon"']);
  assert.is((await webhooks(['test'], operator)).code, 64);
});

test.run();
