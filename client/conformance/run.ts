/**
 * Runs the checks against one target and reports each as pass, fail or skip.
 */
import { type Answer, CheckFailure, CheckSkip } from './answer.ts';
import type { Check, Client, Exhausted, Tester } from './check.ts';
import { CHECKS } from './checks/index.ts';
import { QUOTA, WINDOW } from './expect.ts';
import { createTransport, type Transport } from './transport.ts';
import type { CheckoutToPay, CheckResult, ConformanceOptions, ConformanceReport } from './types.ts';

/** The checkout sessions the run opened and has not paid, by session id. */
type Opened = Map<string, { checkout: CheckoutToPay; address: string | null }>;

const CHECKOUT_CREATE = /\/checkout\/create$/;

function clientOf(transport: Transport, address: string | null, opened: Opened): Client {
  const send: Client['send'] = async (request) => {
    const answer = await transport.send(address, request);
    const body = answer.json as Partial<CheckoutToPay> | undefined;
    if (
      request.method === 'POST' && CHECKOUT_CREATE.test(request.path) && answer.status === 200 && typeof body?.sessionId === 'string' &&
      typeof body.url === 'string'
    ) {
      opened.set(body.sessionId, { checkout: { sessionId: body.sessionId, url: body.url }, address });
    }
    return answer;
  };
  return {
    address,
    send,
    get: (path, headers = {}) => send({ path, headers }),
    post: (path, json, headers = {}) =>
      send({
        method: 'POST',
        path,
        headers: json === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      }),
  };
}

/** Sends GET version as one client until the first 429 (or two windows' worth without one). */
async function exhaust(client: Client): Promise<Exhausted> {
  const answers: Answer[] = [];
  while (answers.length < 2 * QUOTA + 2) {
    const answer = await client.send({ path: '/api/v1/version', unpaced: true });
    answers.push(answer);
    if (answer.status === 429) return { client, answers, limited: answer };
  }
  return { client, answers, limited: null };
}

/** The checks `only` selects: by id, or by a clause (or a prefix of clauses, e.g. "limits") they cover. */
export function selectChecks(only: readonly string[] | undefined): readonly Check[] {
  if (!only || only.length === 0) return CHECKS;
  const covers = (clause: string, name: string) => clause === name || clause.startsWith(`${name}.`);
  const wanted = (check: Check) => only.some((name) => check.id === name || [check.clause, ...(check.also ?? [])].some((clause) => covers(clause, name)));
  return CHECKS.filter(wanted);
}

/** Why a check cannot run against this target, or null. */
function missing(check: Check, options: ConformanceOptions): string | null {
  if (check.strict !== undefined && options.strict !== true) return `strict, off by default: ${check.strict}; give strict: true (--strict) to run it`;
  if (check.needs?.includes('clients') && options.clientAddressHeader === undefined) {
    return 'needs distinct client addresses: give clientAddressHeader (--client-address-header) for a target that trusts it';
  }
  if (check.needs?.includes('payment') && options.payCheckout === undefined) return 'needs a paid checkout: give a payment hook (payCheckout, --pay-url)';
  return null;
}

/**
 * The announcement of how many checks the report will list (those that cannot run here are listed as
 * skipped), how many requests the run sends and how long it may wait for the quota.
 */
function announce(checks: readonly Check[], runnable: readonly Check[], options: ConformanceOptions): string {
  const skipped = checks.length - runnable.length;
  const counted = skipped === 0 ? `${checks.length} checks` : `${checks.length} checks (${skipped} skipped here, ${runnable.length} run)`;
  const requests = runnable.reduce((sum, check) => sum + check.requests, 0);
  if (options.clientAddressHeader !== undefined) return `${counted}, about ${requests} requests over fresh client addresses: no waiting for the quota`;
  const windows = Math.ceil(requests / QUOTA);
  return `${counted}, about ${requests} requests from one client address at ${QUOTA} per ${WINDOW} s: up to ${
    windows * (WINDOW + 1)
  } s waiting for the quota (less when the address starts with a full quota)`;
}

/**
 * What the run leaves on the target, when one address holds it all: the checkout sessions it opens, which
 * a target may cap per address (this server: 10 unpaid at once, each open a day), so that a second run
 * from the same address fails the checkout checks. Null when nothing is left or each check has its own
 * address.
 */
function announceSessions(runnable: readonly Check[], options: ConformanceOptions): string | null {
  const sessions = runnable.reduce((sum, check) => sum + (check.sessions ?? 0), 0);
  if (sessions === 0 || options.clientAddressHeader !== undefined) return null;
  if (options.payCheckout !== undefined) {
    return `it opens up to ${sessions} checkout sessions from this address and pays them through the payment hook: it leaves none open`;
  }
  return `it opens up to ${sessions} checkout sessions from this address and leaves them unpaid; a target may cap the unpaid sessions per address ` +
    `(this server: 10 at once, each open a day), so a second run from this address may fail the checkout checks with too_many_checkouts: ` +
    `give --pay-url to have them paid, or --client-address-header for a fresh address per check`;
}

/**
 * Pays the sessions the run opened from its one address and left unpaid, while the run has time: none is
 * left to count against the next run. Sessions of fresh addresses (clientAddressHeader) count against no
 * address the kit uses again, and are left as they are.
 */
async function payOpened(opened: Opened, transport: Transport, options: ConformanceOptions): Promise<void> {
  if (!options.payCheckout || opened.size === 0 || transport.distinctClients) return;
  let paid = 0;
  for (const { checkout, address } of opened.values()) {
    if (transport.remaining() <= 0) break;
    try {
      await options.payCheckout(checkout, transport.fetchAs(address));
      paid++;
    } catch (error) {
      options.log?.(`could not pay checkout session ${checkout.sessionId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  options.log?.(`paid ${paid} of the ${opened.size} checkout sessions the run left unpaid`);
}

/**
 * Warns when two fresh client addresses share one quota: the target does not take the client address
 * from the header, and the per-client checks will fail for that reason.
 */
async function probeClientHeader(transport: Transport, options: ConformanceOptions): Promise<void> {
  const remaining = async () => (await transport.send(transport.newAddress(), { path: '/api/v1/version' })).headers.get('ratelimit-remaining');
  const [first, second] = [await remaining(), await remaining()];
  if (first !== null && second !== null && Number(second) === Number(first) - 1) {
    options.log?.(
      `two fresh addresses in ${options.clientAddressHeader} share one quota (RateLimit-Remaining ${first}, then ${second}): the target seems not to trust the header, so the per-client checks will fail`,
    );
  }
}

/**
 * Runs the conformance kit against a target of the public API spec.
 *
 * @param options The target (`baseUrl` or `fetch`) and how to drive it.
 * @returns The report: one result per check, and the counts.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const transport = createTransport(options);
  try {
    return await runChecks(transport, options);
  } finally {
    // Nothing of the run outlives its report: a request or wait still pending is aborted, the deadline's
    // timer cleared.
    transport.close();
  }
}

async function runChecks(transport: Transport, options: ConformanceOptions): Promise<ConformanceReport> {
  const checks = selectChecks(options.only);
  const runnable = checks.filter((check) => missing(check, options) === null);
  options.log?.(announce(checks, runnable, options));
  const sessions = announceSessions(runnable, options);
  if (sessions !== null) options.log?.(sessions);
  if (transport.distinctClients && runnable.length > 0) await probeClientHeader(transport, options);
  let exhausted: Promise<Exhausted> | null = null;
  const opened: Opened = new Map();
  const tester: Tester = {
    client: () => clientOf(transport, transport.newAddress(), opened),
    distinctClients: transport.distinctClients,
    exhausted: () => (exhausted ??= exhaust(clientOf(transport, transport.newAddress(), opened))),
    async pay(checkout, client) {
      if (!options.payCheckout) throw new CheckSkip('no payment hook');
      await options.payCheckout(checkout, transport.fetchAs(client.address));
      opened.delete(checkout.sessionId);
    },
  };
  const results: CheckResult[] = [];
  for (const check of checks) {
    const { id, clause, title } = check;
    const reason = missing(check, options);
    if (reason !== null) {
      results.push({ id, clause, title, status: 'skip', message: reason });
      continue;
    }
    if (transport.remaining() <= 0) {
      results.push({ id, clause, title, status: 'fail', message: `not run: the run's deadline of ${transport.deadlineMs / 1000} s passed (--deadline)` });
      continue;
    }
    try {
      await check.run(tester);
      results.push({ id, clause, title, status: 'pass', message: 'as the spec says' });
    } catch (error) {
      // One line, whatever the error said.
      const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
      if (error instanceof CheckSkip) results.push({ id, clause, title, status: 'skip', message });
      else if (error instanceof CheckFailure) results.push({ id, clause: error.clause ?? clause, title, status: 'fail', message });
      else results.push({ id, clause, title, status: 'fail', message: `the check could not talk to the target: ${message}` });
    }
  }
  await payOpened(opened, transport, options);
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip'), checks: results };
}
