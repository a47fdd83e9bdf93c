/**
 * `converter-site-api webhooks list|add|enable|disable|deliveries|replay`: outbound event endpoints and
 * their delivery log through the operator API (docs/operating.md). A table for people, `--json` for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import { callOperator, OPERATOR_HELP_FOOTER, type OperatorCall, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api webhooks <list|add|enable|disable|deliveries|replay> [options]

Sends signed events (Standard Webhooks) to endpoints you register, through the operator API of a running
server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  webhooks list                                  the endpoints
  webhooks add <url> [--events <a,b>] [--slack]  a new endpoint; prints its signing secret, shown this once.
                                                 events: feedback.received, order.paid, license.revoked,
                                                 license.reinstated, release.published, release.rolled_out,
                                                 release.pulled, release.restored, roadmap.changed
                                                 (every type when --events is not given)
  webhooks disable <id> | enable <id>            stop or resume new deliveries to an endpoint
  webhooks deliveries [--state <pending|delivered|failed>]
                                                 the delivery log, newest first
  webhooks replay <delivery-id>                  send a delivery again now, same webhook-id and body

${OPERATOR_HELP_FOOTER}`;

interface EndpointView {
  id: number;
  url: string;
  events: string[];
  format: string;
  enabled: boolean;
  secret?: string;
}

interface DeliveryView {
  id: number;
  type: string;
  url: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  nextAttemptAt: string | null;
  eventId: string;
}

type Answer = Partial<EndpointView & DeliveryView> & { endpoints?: EndpointView[]; deliveries?: DeliveryView[] };

const endpointRows = (endpoints: EndpointView[]): string[][] => [
  ['ID', 'STATE', 'FORMAT', 'EVENTS', 'URL', ...(endpoints.some((e) => e.secret) ? ['SECRET'] : [])],
  ...endpoints.map((e) => [String(e.id), e.enabled ? 'on' : 'off', e.format, e.events.join(',') || 'all', e.url, ...(e.secret ? [e.secret] : [])]),
];

const deliveryRows = (deliveries: DeliveryView[]): string[][] => [
  ['ID', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT', 'TYPE', 'EVENT', 'URL'],
  ...deliveries.map((d) => [String(d.id), d.state, String(d.attempts), d.lastStatus === null ? '-' : String(d.lastStatus), d.nextAttemptAt ?? '-', d.type, d.eventId, d.url]),
];

function idOf(text: string | undefined, what: string): number {
  if (text === undefined || !/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`${what} must be an id (a whole number from 1), not ${JSON.stringify(text ?? '')}`);
  return Number(text);
}

function callFor(action: string, argument: string | undefined, values: Record<string, string | boolean | undefined>): OperatorCall {
  switch (action) {
    case 'list':
      return { method: 'GET', path: '/webhooks' };
    case 'add': {
      if (!argument) throw new UsageError('webhooks add needs the endpoint URL');
      const events = typeof values['events'] === 'string' ? values['events'].split(',').map((e) => e.trim()).filter(Boolean) : [];
      return { method: 'POST', path: '/webhooks', body: { url: argument, events, format: values['slack'] ? 'slack' : 'standard' } };
    }
    case 'enable':
    case 'disable':
      return { method: 'PATCH', path: `/webhooks/${idOf(argument, `webhooks ${action}'s argument`)}`, body: { enabled: action === 'enable' } };
    case 'deliveries':
      return { method: 'GET', path: `/webhooks/deliveries${typeof values['state'] === 'string' ? `?state=${encodeURIComponent(values['state'])}` : ''}` };
    case 'replay':
      return { method: 'POST', path: `/webhooks/deliveries/${idOf(argument, 'webhooks replay\'s argument')}/replay` };
    default:
      throw new UsageError('say what to do: list, add, enable, disable, deliveries or replay');
  }
}

export const webhooks: Command = {
  name: 'webhooks',
  summary: 'register event endpoints, read the delivery log, replay a delivery (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals, help } = parseCommandLine(
      args,
      { json: { type: 'boolean' }, events: { type: 'string' }, slack: { type: 'boolean' }, state: { type: 'string' } },
      2,
    );
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action = '', argument] = positionals;
    if ((action === 'list' || action === 'deliveries') && argument !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(argument)}`);
    const answer = await callOperator('webhooks', callFor(action, argument, values), io);
    if ('exit' in answer) return answer.exit;
    return printAnswer<Answer>(answer.text, values['json'] === true, io, (a) => {
      if (a.deliveries) return deliveryRows(a.deliveries);
      if (a.endpoints) return endpointRows(a.endpoints);
      return action === 'replay' ? deliveryRows([a as DeliveryView]) : endpointRows([a as EndpointView]);
    });
  },
};
