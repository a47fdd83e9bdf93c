/**
 * `converter-site-api webhooks test|rotate-secret|replay-failed|delete` as an operator types them, against
 * the operator API (the receiver is a loopback address nothing sends to here: no delivery worker runs).
 * Each answer is the API's, as a table or with --json. The program runs in process and the app answers
 * its calls in process (test/_cli.ts); test/server/events-kill.test.ts runs the program and its listener.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LOCAL_RECEIVERS, OPERATOR_TOKEN } from '../_operator.ts';
import { inProcessOperatorListener, type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { runCommand } from '../_cli.ts';

interface Context {
  server: InProcessServer;
  operator: ReturnType<typeof inProcessOperatorListener>;
}

const test = suite<Context>('webhooks command', {} as Context);
const HOOK = 'http://127.0.0.1:9/hook';

test.before(async (context) => {
  context.server = await startInProcessServer({ operatorToken: OPERATOR_TOKEN, webhookAddresses: LOCAL_RECEIVERS });
  context.operator = inProcessOperatorListener(context.server.app);
});
test.after(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

/** Where the command finds the operator API: answered in process by the app (test/_cli.ts), never on the network. */
const OPERATOR_URL = 'http://operator.test';

/** `converter-site-api webhooks ...` in process, its operator API calls answered by `server`'s app. */
const webhooks = (args: string[], server: InProcessServer) =>
  runCommand(['webhooks', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: server.app.operator! });

test('test, rotate-secret, replay-failed and delete, each the API answer; wrong arguments are usage errors (64)', async ({ server, operator }) => {
  const added = (await operator.call('/webhooks', { method: 'POST', json: { url: HOOK } })).json() as { id: number };
  const id = String(added.id);
  const sent = await webhooks(['test', id, '--json'], server);
  assert.is(sent.code, 0, sent.stderr);
  assert.equal((({ type, state, endpointId }) => [type, state, endpointId])(JSON.parse(sent.stdout) as { type: string; state: string; endpointId: number }), [
    'webhook.test',
    'pending',
    added.id,
  ]);
  const rotated = await webhooks(['rotate-secret', id, '--grace-hours', '0'], server);
  assert.is(rotated.code, 0, rotated.stderr);
  const [header, row] = rotated.stdout.trim().split('\n');
  assert.equal(header!.split(/ +/), ['ID', 'URL', 'SECRET', 'OLD', 'SECRET', 'UNTIL']);
  assert.match(row!, new RegExp(`^${id} +${HOOK} +whsec_\\S+ +- \\(ended\\)$`));
  const replayed = await webhooks(['replay-failed', '--endpoint', id, '--json'], server);
  assert.equal([replayed.code, JSON.parse(replayed.stdout)], [0, { replayed: 0, remaining: 0 }]);
  const deleted = await webhooks(['delete', id], server);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout.trim().split('\n')[1]!.split(/ +/), [id, HOOK, '1']);
  const gone = await webhooks(['delete', id], server);
  assert.equal([gone.code, gone.stderr.includes(`No webhook endpoint has id ${id}.`)], [1, true]);
  const wrong = await webhooks(['rotate-secret', id, '--grace-hours', 'soon'], server);
  assert.equal([wrong.code, wrong.stderr.split('\n')[0]], [64, 'converter-site-api webhooks: --grace-hours must be whole hours from 0 to 24, not "soon"']);
  assert.is((await webhooks(['test'], server)).code, 64);
});

test.run();
