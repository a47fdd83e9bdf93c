/**
 * `converter-site-api payments trigger <event>... --session <id>`: sends signed test provider events (a
 * payment completed, a refund, a dispute opened, a dispute won) about one session's payment to a running
 * server's POST /api/v1/webhooks/gateway, in the order given, signed with STRIPE_WEBHOOK_SECRET exactly as
 * Stripe signs (adapters/stripe/test-events.ts), as `stripe trigger` does for Stripe's own events. So a
 * vendor tries a refund before its payment, on a server of their own (docs/payments.md).
 *
 * @module
 */
import { canonicalIp } from '../../core/clients/client-ip.ts';
import { type SignedTestEvent, signedTestEvent, TEST_EVENTS, type TestEventName } from '../../adapters/stripe/test-events.ts';
import { ConfigError } from '../config-error.ts';
import { type Command, EXIT, type Io, parseCommandLine, UsageError } from './command.ts';
import { table } from './operator-api.ts';

const NAMES = Object.keys(TEST_EVENTS) as TestEventName[];

/** The most events one run sends. */
const MAX_EVENTS = 20;

const HELP = `usage: converter-site-api payments trigger <event>... --session <id> [options]

Sends signed test events of the payment provider (Stripe) about one checkout session's payment to a running
server's POST /api/v1/webhooks/gateway, one after the other in the order given, each signed with
STRIPE_WEBHOOK_SECRET as Stripe signs it. The events may come in any order, across runs: a refund before
its payment is kept and applied when the payment arrives (docs/operating.md "Handle a refund").

events:
${NAMES.map((name) => `  ${name.padEnd(20)}${TEST_EVENTS[name]}`).join('\n')}

options:
  --session <id>          the checkout session (cs_test_...), as POST /api/v1/checkout/create answered it
  --base-url <url>        the server (http://127.0.0.1:$PORT, 8080 by default); only a loopback address
                          unless --allow-remote
  --allow-remote          send to a server elsewhere: these events revoke and reinstate its real orders
  --live-session          send events about a live session (cs_live_...); a server on a live key ignores
                          them all the same, as they say livemode: false
  --payment-intent <id>   the payment's PaymentIntent (pi_...), for a payment Stripe made; by default one made
                          from the session id, the same in every run
  --email <address>       the buyer of payment-completed (buyer@example.com)
  --amount <n>            the amount paid, refunded and disputed, in cents (4900)
  --currency <code>       its currency (usd)
  --json                  print each event sent and the server's answer as JSON

environment: STRIPE_WEBHOOK_SECRET (whsec_..., the server's), PORT

A redirect is never followed: the events go to the address given or nowhere (a 3xx is printed as refused).

exit codes: 0 every event accepted, 1 the server refused one, redirected it or did not answer, 64 usage error,
            78 STRIPE_WEBHOOK_SECRET missing or not a whsec_ secret
`;

const FLAGS = {
  session: { type: 'string' },
  'base-url': { type: 'string' },
  'allow-remote': { type: 'boolean' },
  'live-session': { type: 'boolean' },
  'payment-intent': { type: 'string' },
  email: { type: 'string' },
  amount: { type: 'string' },
  currency: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * Whether a base URL is this machine (127.0.0.0/8, ::1 or localhost): where test events may go without
 * --allow-remote, since a signed refund revokes whatever order it names.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const ip = canonicalIp(host);
  return ip !== null && (ip.startsWith('127.') || ip === '::1');
}

/** The server's address: --base-url, else this machine's PORT. */
function baseUrlOf(text: string | undefined, allowRemote: boolean, env: NodeJS.ProcessEnv): URL {
  const given = text ?? `http://127.0.0.1:${env['PORT'] || '8080'}`;
  if (!URL.canParse(given) || !/^https?:$/.test(new URL(given).protocol)) {
    throw new UsageError(`--base-url must be an http(s) URL, not ${JSON.stringify(given)}`);
  }
  const url = new URL(given);
  if (!allowRemote && !isLoopbackUrl(url)) {
    throw new UsageError(`${url.origin} is not this machine: these events revoke and reinstate real orders; add --allow-remote to send them there`);
  }
  return url;
}

function secretOf(env: NodeJS.ProcessEnv): string {
  const secret = env['STRIPE_WEBHOOK_SECRET']?.trim();
  if (!secret) throw new ConfigError('STRIPE_WEBHOOK_SECRET is not set: give the webhook signing secret (whsec_...) the server verifies with');
  if (!secret.startsWith('whsec_')) throw new ConfigError('STRIPE_WEBHOOK_SECRET must be the endpoint signing secret (whsec_...), not an API key');
  return secret;
}

interface Sent {
  event: TestEventName;
  type: string;
  id: string;
  status: number;
  answer: unknown;
}

async function send(url: URL, event: SignedTestEvent): Promise<{ status: number; answer: unknown }> {
  const target = new URL('/api/v1/webhooks/gateway', url);
  const response = await fetch(target, {
    method: 'POST',
    // A signed event re-sent to wherever a redirect points could reach another server's orders.
    redirect: 'manual',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.signature, 'user-agent': 'converter-site-api payments trigger' },
    body: event.body,
    signal: AbortSignal.timeout(30_000),
  }).catch((error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new Error(`${target.href} did not answer (${cause}): is the server running there?`);
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    return { status: response.status, answer: `a redirect${location ? ` to ${location}` : ''}, not followed: send the events to the server's own address` };
  }
  const text = await response.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): shown as text.
  }
  return { status: response.status, answer };
}

export const payments: Command = {
  name: 'payments',
  summary: 'send signed test provider events (payment, refund, dispute) to a running server',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 1 + MAX_EVENTS);
    const [verb, ...events] = positionals;
    if (verb !== 'trigger') throw new UsageError('say what to do: trigger');
    if (events.length === 0) throw new UsageError(`name the events to send: ${NAMES.join(', ')}`);
    const unknown = events.find((name) => !(NAMES as string[]).includes(name));
    if (unknown !== undefined) throw new UsageError(`unknown event ${JSON.stringify(unknown)}; the events are ${NAMES.join(', ')}`);
    const session = values.session?.trim();
    if (!session) throw new UsageError('--session is needed: the checkout session id (cs_test_...)');
    if (session.startsWith('cs_live_') && values['live-session'] !== true) {
      throw new UsageError(`${session} is a live session: these are test events (livemode: false); add --live-session to send them about it`);
    }
    const amount = values.amount ?? '4900';
    if (!/^\d{1,12}$/.test(amount)) throw new UsageError(`--amount must be a whole number of cents, not ${JSON.stringify(amount)}`);
    const currency = (values.currency ?? 'usd').toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw new UsageError(`--currency must be a three-letter code such as usd, not ${JSON.stringify(values.currency)}`);
    const url = baseUrlOf(values['base-url'], values['allow-remote'] === true, process.env);
    const secret = secretOf(process.env);
    const payment = { session, paymentIntent: values['payment-intent'], amount: Number(amount), currency, email: values.email ?? 'buyer@example.com' };
    const sent: Sent[] = [];
    for (const name of events as TestEventName[]) {
      const event = await signedTestEvent(name, payment, secret, Math.floor(Date.now() / 1000));
      const { status, answer } = await send(url, event);
      sent.push({ event: name, type: event.type, id: event.id, status, answer });
      if (status >= 300) {
        const body = (typeof answer === 'object' && answer !== null ? answer : {}) as { code?: string; message?: string; resolution?: string };
        const said = typeof answer === 'string' ? answer : (body.message ?? JSON.stringify(answer));
        io.stderr(`${name} (${event.type} ${event.id}) was refused: ${status} ${body.code ?? ''} ${said} ${body.resolution ?? ''}\n`.replace(/ {2,}/g, ' '));
        break;
      }
    }
    if (values.json === true) io.stdout(`${JSON.stringify(sent)}\n`);
    else {io.stdout(
        table([['EVENT', 'TYPE', 'ID', 'STATUS', 'ANSWER'], ...sent.map((s) => [s.event, s.type, s.id, String(s.status), JSON.stringify(s.answer)])]),
      );}
    return sent.every((s) => s.status < 300) ? EXIT.ok : EXIT.failed;
  },
};
