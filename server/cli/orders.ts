/**
 * `converter-site-api orders find|show|upgrade|revoke|reinstate|resend|failed-mails|retry-mail|reconcile|export`: the operator API's orders
 * (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { listOrders, type Reconciled, reconcileOrders, reinstateOrder, revokeOrder, showOrder, upgradeOrder } from '../../core/operator/orders.ts';
import type { OrderView } from '../../core/operator/order-view.ts';
import { type MailView, resendOrderMail } from '../../core/operator/mail.ts';
import { listFailedMails, retryMail } from '../../core/operator/mail-retry.ts';
import { type Command, type FlagValues, type Io, parseCommandLine, refuseOtherFlags, UsageError } from './command.ts';
import { OPERATOR_HELP_FOOTER, prepare, type PreparedCall, printCall, table } from './operator-api.ts';
import { exportOrdersCsv } from './orders-export.ts';

const HELP = `usage: converter-site-api orders <find|show|upgrade|revoke|reinstate|resend|failed-mails|retry-mail|reconcile|export> [options]

Finds and changes the orders (paid checkout sessions and their license keys) through the operator API
of a running server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  orders find [--email <address>] [--name <text>] [--limit <n>]
  orders find --session <id> | --key <license key>
                                        paid orders, newest first: a buyer's (the email exactly, any
                                        case; part of the name, any case; or both), one session
                                        (whatever its state), the order holding a license key (as
                                        pasted: spaces and line breaks in it are ignored), or the latest 50
  orders show <session>                 one order: the buyer, the amount, the keys and whether they stand
  orders upgrade <session>              issue the Plus key of a standard order (once)
  orders revoke <session> [--reason <text>]
                                        revoke the order's licenses: checkout/status shows no keys
  orders reinstate <session> [--reason <text>]
                                        reinstate them
  orders resend <session>               mail the order's valid keys to its buyer again (docs/mail.md)
  orders failed-mails [--limit <n>]     the mails the relay refused for good, newest first, with its error
  orders retry-mail <mail id>           send a failed mail again, with the same Message-ID (once an hour)
  orders reconcile [--since <ISO 8601>] fulfil the sessions the payment provider has as paid since then
                                        (7 days ago by default) that this server never fulfilled
  orders export [--since <ISO 8601>] [--until <ISO 8601>] [--out FILE]
                                        paid orders for accounting as CSV, oldest first (since included,
                                        until excluded): sessionId, paidAt, email, name, sku, amount,
                                        currency, state, refundedAmount; to stdout or FILE (written
                                        through a temporary file, renamed when complete)

${OPERATOR_HELP_FOOTER}`;

const FLAGS = {
  json: { type: 'boolean' },
  email: { type: 'string' },
  session: { type: 'string' },
  limit: { type: 'string' },
  reason: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  name: { type: 'string' },
  key: { type: 'string' },
  out: { type: 'string', short: 'o' },
} as const;

const dash = (text: string | null) => text ?? '-';

/** The licenses column: valid, none, or revoked and why. */
const standing = (o: OrderView) => (o.revokedBecause ? `revoked (${o.revokedBecause})` : o.licenses);

function ordersTable(orders: readonly OrderView[]): string {
  if (orders.length === 0) return 'no orders\n';
  const rows = orders.map((o) => [o.session, dash(o.paidAt ?? o.createdAt), o.product, o.state, dash(o.buyer.email), dash(o.buyer.country), standing(o)]);
  return table([['SESSION', 'PAID', 'PRODUCT', 'STATE', 'EMAIL', 'COUNTRY', 'LICENSES'], ...rows]);
}

function orderDetails(o: OrderView): string {
  const provider = [o.refunded ? 'refunded' : '', o.disputed ? (o.disputeWon ? 'dispute won' : 'disputed') : ''].filter(Boolean).join(', ');
  const lines = [
    ['session', o.session],
    ['product', o.product],
    ['state', o.state],
    ['created', o.createdAt],
    ['paid', dash(o.paidAt)],
    ['buyer', [o.buyer.name, o.buyer.email, o.buyer.country].filter(Boolean).join(', ') || '-'],
    ['payment', dash(o.paymentRef)],
    ['amount', o.amount === null ? '-' : [o.amount, o.currency].filter(Boolean).join(' ')],
    ['provider', provider || '-'],
    ['operator', o.override ? `${o.override.action} at ${o.override.at}${o.override.reason ? `: ${o.override.reason}` : ''}` : '-'],
    ['licenses', standing(o)],
  ];
  const keys = o.keys.length === 0 ? '' : '\n' + table([['PRODUCT', 'STATE', 'KEY'], ...o.keys.map((k) => [k.product, k.state, k.key])]);
  return lines.map(([name, value]) => `${name!.padEnd(9)}${value}`).join('\n') + '\n' + keys;
}

function mailQueued(m: MailView): string {
  return `queued mail ${m.id} (${m.kind}) to ${m.to}: ${m.subject}\n`;
}

function failedMailsTable(mails: readonly MailView[]): string {
  if (mails.length === 0) return 'no failed mails\n';
  const rows = mails.map((m) => [String(m.id), m.createdAt, m.kind, dash(m.session), m.to, dash(m.retriedAt), dash(m.lastError)]);
  return table([['ID', 'WRITTEN', 'KIND', 'SESSION', 'TO', 'SENT AGAIN', 'LAST ERROR'], ...rows]);
}

function reconcileSummary(r: Reconciled): string {
  const more = r.complete ? '' : ' (more remain: run it again with a later --since)';
  const lines = [
    `checked ${r.checked} paid session(s) since ${r.since}${more}`,
    `fulfilled now: ${r.fulfilled.length}${r.fulfilled.map((id) => `\n  ${id}`).join('')}`,
    `already fulfilled: ${r.alreadyFulfilled}`,
    `not created by this server: ${r.unknown}`,
  ];
  return lines.join('\n') + '\n';
}

/** Sends a call and prints its answer: its JSON with --json, else what `render` makes of it. */
const print = <Output>(call: PreparedCall<Output>, json: boolean, io: Io, render: (answer: Output) => string) => printCall('orders', call, json, io, render);

/** Does what a command line asks for; every mistake in it is a UsageError. */
function send(action: string | undefined, session: string | undefined, values: FlagValues<typeof FLAGS>, io: Io): Promise<number> {
  const ACTIONS = ['find', 'show', 'upgrade', 'revoke', 'reinstate', 'resend', 'failed-mails', 'retry-mail', 'reconcile', 'export'];
  if (!action || !ACTIONS.includes(action)) {
    throw new UsageError('say what to do: find, show, upgrade, revoke, reinstate, resend, failed-mails, retry-mail, reconcile or export');
  }
  const takesSession = action === 'show' || action === 'upgrade' || action === 'revoke' || action === 'reinstate' || action === 'resend' ||
    action === 'retry-mail';
  if (takesSession && !session) {
    throw new UsageError(`orders ${action} needs ${action === 'retry-mail' ? 'a mail id (orders failed-mails lists them)' : 'a session id'}`);
  }
  if (!takesSession && session) throw new UsageError(`unexpected argument ${JSON.stringify(session)}`);
  const takes: Record<string, (keyof typeof FLAGS)[]> = {
    find: ['email', 'session', 'limit', 'name', 'key'],
    'failed-mails': ['limit'],
    revoke: ['reason'],
    reinstate: ['reason'],
    reconcile: ['since'],
    export: ['since', 'until', 'out'],
  };
  refuseOtherFlags('orders', action, values, ['json', ...(takes[action] ?? [])]);
  const json = values.json === true;
  const params = { session: session ?? '' };
  const reason = values.reason === undefined ? {} : { reason: values.reason };
  switch (action) {
    case 'find': {
      const { email, session: one, name, key, limit } = values;
      if (email !== undefined && one !== undefined) throw new UsageError('give --email or --session, not both');
      if ([email ?? name, one, key].filter((given) => given !== undefined).length > 1) {
        throw new UsageError('give --email and --name, --session, or --key: one of them');
      }
      return print(prepare(listOrders, { query: { email, name, session: one, key, limit } }), json, io, (a) => ordersTable(a.orders));
    }
    case 'export':
      if (json) throw new UsageError('orders export writes CSV: no --json');
      return exportOrdersCsv({ since: values.since, until: values.until }, values.out, io);
    case 'show':
      return print(prepare(showOrder, { params }), json, io, orderDetails);
    case 'upgrade':
      return print(prepare(upgradeOrder, { params }), json, io, orderDetails);
    case 'revoke':
      return print(prepare(revokeOrder, { params, body: reason }), json, io, orderDetails);
    case 'reinstate':
      return print(prepare(reinstateOrder, { params, body: reason }), json, io, orderDetails);
    case 'resend':
      return print(prepare(resendOrderMail, { params }), json, io, mailQueued);
    case 'failed-mails':
      return print(prepare(listFailedMails, { query: { limit: values.limit } }), json, io, (a) => failedMailsTable(a.mails));
    case 'retry-mail':
      return print(prepare(retryMail, { params: { id: session ?? '' } }), json, io, mailQueued);
    default:
      return print(prepare(reconcileOrders, { body: values.since === undefined ? {} : { since: values.since } }), json, io, reconcileSummary);
  }
}

export const orders: Command = {
  name: 'orders',
  summary: 'find orders by email, name or key, show, upgrade, revoke, reinstate, resend keys, send failed mails again, reconcile, export CSV (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 2);
    const [action, session] = positionals;
    return send(action, session, values, io);
  },
};
