/**
 * `converter-site-api webhooks list|add|enable|disable|test|delete|rotate-secret|deliveries|replay|replay-failed`: outbound event endpoints and
 * their delivery log through the operator API (docs/operating.md). A table for people, `--json` for scripts.
 *
 * @module
 */
import { type Command, type FlagValues, type Io, parseCommandLine, UsageError } from './command.ts';
import type * as v from 'valibot';
import {
  addWebhookEndpoint,
  type DeliverySchema,
  editWebhookEndpoint,
  type EndpointSchema,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
} from '../../core/operator/webhooks.ts';
import { deleteWebhookEndpoint, replayFailedWebhookDeliveries, rotateWebhookSecret, sendWebhookTest } from '../../core/operator/webhook-admin.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api webhooks <list|add|enable|disable|test|delete|rotate-secret|deliveries|replay|replay-failed> [options]

Sends signed events (Standard Webhooks) to endpoints you register, through the operator API of a running
server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  webhooks list                                  the endpoints
  webhooks add <url> [--events <a,b>] [--slack]  a new endpoint; prints its signing secret, shown this once.
                                                 events: feedback.received, order.paid, license.revoked,
                                                 license.reinstated, release.published, release.rolled_out,
                                                 release.pulled, release.restored, release.promoted,
                                                 release.halted, release.resumed, roadmap.changed
                                                 (every type when --events is not given)
  webhooks disable <id> | enable <id>            stop or resume new deliveries to an endpoint
  webhooks test <id>                             send it a webhook.test event now (signed, in the log)
  webhooks delete <id>                           delete it and its delivery log (pending ones are never sent)
  webhooks rotate-secret <id> [--grace-hours <0-24>]
                                                 a new signing secret, shown this once; the old one signs
                                                 too for 24 hours (or --grace-hours; 0: ends at once)
  webhooks deliveries [--state <pending|delivered|failed>]
                                                 the delivery log, newest first
  webhooks replay <delivery-id>                  send a delivery again now, same webhook-id and body
  webhooks replay-failed [--endpoint <id>]       every failed delivery again (up to 1000 a call), after an outage

${OPERATOR_HELP_FOOTER}`;

type EndpointView = v.InferOutput<typeof EndpointSchema> & { secret?: string };
type DeliveryView = v.InferOutput<typeof DeliverySchema>;

const FLAGS = {
  json: { type: 'boolean' },
  events: { type: 'string' },
  slack: { type: 'boolean' },
  state: { type: 'string' },
  'grace-hours': { type: 'string' },
  endpoint: { type: 'string' },
} as const;

const endpointRows = (endpoints: readonly EndpointView[]): string[][] => [
  ['ID', 'STATE', 'FORMAT', 'EVENTS', 'URL', ...(endpoints.some((e) => e.secret) ? ['SECRET'] : [])],
  ...endpoints.map((e) => [String(e.id), e.enabled ? 'on' : 'off', e.format, e.events.join(',') || 'all', e.url, ...(e.secret ? [e.secret] : [])]),
];

const deliveryRows = (deliveries: readonly DeliveryView[]): string[][] => [
  ['ID', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT', 'TYPE', 'EVENT', 'URL'],
  ...deliveries.map((
    d,
  ) => [String(d.id), d.state, String(d.attempts), d.lastStatus === null ? '-' : String(d.lastStatus), d.nextAttemptAt ?? '-', d.type, d.eventId, d.url]),
];

function idOf(text: string | undefined, what: string): number {
  if (text === undefined || !/^[1-9]\d{0,14}$/.test(text)) {
    throw new UsageError(`${what} must be an id (a whole number from 1), not ${JSON.stringify(text ?? '')}`);
  }
  return Number(text);
}

/** Sends what an action asks for; every mistake in the command line is a UsageError. */
async function send(action: string, argument: string | undefined, values: FlagValues<typeof FLAGS>, io: Io): Promise<number> {
  const json = values.json === true;
  switch (action) {
    case 'list': {
      const answer = await callOperator('webhooks', prepare(listWebhookEndpoints), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => endpointRows(a.endpoints));
    }
    case 'add': {
      if (!argument) throw new UsageError('webhooks add needs the endpoint URL');
      const events = values.events === undefined ? [] : values.events.split(',').map((e) => e.trim()).filter(Boolean);
      const body = { url: argument, events, format: values.slack ? 'slack' : 'standard' };
      const answer = await callOperator('webhooks', prepare(addWebhookEndpoint, { body }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (e) => endpointRows([e]));
    }
    case 'enable':
    case 'disable': {
      const id = String(idOf(argument, `webhooks ${action}'s argument`));
      const answer = await callOperator('webhooks', prepare(editWebhookEndpoint, { params: { id }, body: { enabled: action === 'enable' } }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (e) => endpointRows([e]));
    }
    case 'deliveries': {
      const answer = await callOperator('webhooks', prepare(listWebhookDeliveries, { query: { state: values.state } }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => deliveryRows(a.deliveries));
    }
    case 'replay': {
      const id = String(idOf(argument, "webhooks replay's argument"));
      const answer = await callOperator('webhooks', prepare(replayWebhookDelivery, { params: { id } }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (d) => deliveryRows([d]));
    }
    case 'test':
    case 'delete': {
      const params = { id: String(idOf(argument, `webhooks ${action}'s argument`)) };
      if (action === 'delete') {
        const answer = await callOperator('webhooks', prepare(deleteWebhookEndpoint, { params }), io);
        return 'exit' in answer
          ? answer.exit
          : printAnswer(answer, json, io, (a) => [['ID', 'URL', 'DELIVERIES DELETED'], [String(a.deleted.id), a.deleted.url, String(a.droppedDeliveries)]]);
      }
      const answer = await callOperator('webhooks', prepare(sendWebhookTest, { params }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (d) => deliveryRows([d]));
    }
    case 'rotate-secret': {
      const params = { id: String(idOf(argument, "webhooks rotate-secret's argument")) };
      const grace = values['grace-hours'];
      if (grace !== undefined && !/^\d{1,2}$/.test(grace)) throw new UsageError(`--grace-hours must be whole hours from 0 to 24, not ${JSON.stringify(grace)}`);
      const body = grace === undefined ? {} : { graceHours: Number(grace) };
      const answer = await callOperator('webhooks', prepare(rotateWebhookSecret, { params, body }), io);
      return 'exit' in answer ? answer.exit : printAnswer(
        answer,
        json,
        io,
        (e) => [['ID', 'URL', 'SECRET', 'OLD SECRET UNTIL'], [String(e.id), e.url, e.secret, e.previousSecretValidUntil ?? '- (ended)']],
      );
    }
    case 'replay-failed': {
      const body = values.endpoint === undefined ? {} : { endpointId: idOf(values.endpoint, '--endpoint') };
      const answer = await callOperator('webhooks', prepare(replayFailedWebhookDeliveries, { body }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => [['REPLAYED', 'FAILED LEFT'], [String(a.replayed), String(a.remaining)]]);
    }
    default:
      throw new UsageError('say what to do: list, add, enable, disable, test, delete, rotate-secret, deliveries, replay or replay-failed');
  }
}

export const webhooks: Command = {
  name: 'webhooks',
  summary: 'register, test, delete event endpoints and rotate their secrets; the delivery log and replays (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 2);
    const [action = '', argument] = positionals;
    if ((action === 'list' || action === 'deliveries' || action === 'replay-failed') && argument !== undefined) {
      throw new UsageError(`unexpected argument ${JSON.stringify(argument)}`);
    }
    return send(action, argument, values, io);
  },
};
