/**
 * The Events page: the endpoints outbound events go to, each turned off and on, sent a test event, given a
 * new secret or deleted; add one (its signing secret is shown once, in the flash after adding or
 * rotating); the delivery log, filtered by state, with a Replay button per delivery and one for every
 * failed delivery.
 *
 * @module
 */
import type * as v from 'valibot';
import {
  addWebhookEndpoint,
  editWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookDelivery,
  type DeliverySchema,
  type EndpointSchema,
} from '../../core/operator/webhooks.ts';
import { deleteWebhookEndpoint, replayFailedWebhookDeliveries, rotateWebhookSecret, sendWebhookTest } from '../../core/operator/webhook-admin.ts';
import { EVENT_TYPES } from '../../core/ports/events.ts';
import { field, selectField } from './fields.ts';
import { html, time, type Html } from './html.ts';
import { csrfField, refusalBox } from './layout.ts';
import { done, failed, keptQuery, type PageModule, type PageRequest } from './page-module.ts';

type Endpoint = v.InferOutput<typeof EndpointSchema>;
type DeliveryView = v.InferOutput<typeof DeliverySchema>;

const PATH = '/pages/events';
const STATES = [['pending', 'Pending'], ['delivered', 'Delivered'], ['failed', 'Failed']] as const;

function endpointCard(endpoint: Endpoint, csrf: string): Html {
  const events = endpoint.events.length === 0 ? 'every event' : endpoint.events.join(', ');
  return html`<article class="card${endpoint.enabled ? '' : ' hidden'}" aria-labelledby="endpoint-${endpoint.id}">
<h3 id="endpoint-${endpoint.id}">#${endpoint.id} <span class="badge${endpoint.enabled ? ' strong' : ''}">${endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
<span class="badge">${endpoint.format === 'slack' ? 'Slack format' : 'Standard Webhooks'}</span></h3>
<p class="description">${endpoint.url}</p>
<p class="meta">Sends ${events} · added ${time(endpoint.createdAt)}</p>
<form method="post" action="${PATH}/endpoints/${endpoint.id}/enabled">${csrfField(csrf)}
<input type="hidden" name="enabled" value="${endpoint.enabled ? 'false' : 'true'}">
<button type="submit" class="secondary">${endpoint.enabled ? 'Disable' : 'Enable'}<span class="visually-hidden"> endpoint #${endpoint.id}</span></button></form>
${endpointButton(endpoint.id, 'test', 'Send a test event', csrf)}
${endpointButton(endpoint.id, 'rotate-secret', 'Rotate the secret (the old one signs too for 24 h)', csrf)}
${endpointButton(endpoint.id, 'delete', 'Delete (with its delivery log)', csrf)}
</article>`;
}

/** One button that posts an action of an endpoint (no field but the CSRF token). */
function endpointButton(id: number, action: string, text: string, csrf: string): Html {
  return html`<form method="post" action="${PATH}/endpoints/${id}/${action}">${csrfField(csrf)}
<button type="submit" class="secondary">${text}<span class="visually-hidden"> for endpoint #${id}</span></button></form>`;
}

function addForm(csrf: string): Html {
  const boxes = EVENT_TYPES.map(
    (type) => html`<div><label class="inline" for="event-${type.replace('.', '-')}"><input type="checkbox" id="event-${type.replace('.', '-')}" name="event-${type}" value="on"> ${type}</label></div>`,
  );
  return html`<details class="card"><summary>Add an endpoint</summary>
<form method="post" action="${PATH}/endpoints">${csrfField(csrf)}
${field('endpoint-url', 'url', 'Address (http or https)', { type: 'url', required: true })}
<fieldset><legend>Events (none ticked: every event)</legend>${boxes}</fieldset>
${selectField('endpoint-format', 'format', 'Format', [['standard', 'Standard Webhooks'], ['slack', 'Slack']])}
<button type="submit">Add the endpoint</button>
</form></details>`;
}

function deliveryCard(delivery: DeliveryView, csrf: string, back: string): Html {
  const last = delivery.lastAttemptAt
    ? html` · last attempt ${time(delivery.lastAttemptAt)}${delivery.lastStatus !== null ? ` answered ${delivery.lastStatus}` : ''}${delivery.lastError ? `: ${delivery.lastError}` : ''}`
    : '';
  const next = delivery.nextAttemptAt ? html` · next attempt ${time(delivery.nextAttemptAt)}` : '';
  return html`<article class="card" aria-labelledby="delivery-${delivery.id}">
<h3 id="delivery-${delivery.id}">#${delivery.id} ${delivery.type} <span class="badge${delivery.state === 'failed' ? ' strong' : ''}">${delivery.state}</span></h3>
<p class="description">To endpoint #${delivery.endpointId}: ${delivery.url}</p>
<p class="meta wrap">Event ${delivery.eventId} · created ${time(delivery.createdAt)} · ${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}${last}${next}${delivery.deliveredAt ? html` · delivered ${time(delivery.deliveredAt)}` : ''}</p>
<form method="post" action="${PATH}/deliveries/${delivery.id}/replay">${csrfField(csrf)}<input type="hidden" name="back" value="${back}">
<button type="submit" class="secondary">Replay<span class="visually-hidden"> delivery #${delivery.id}</span></button></form>
</article>`;
}

async function deliveryLog(page: PageRequest): Promise<Html> {
  const state = page.query.get('state') ?? '';
  const query = new URLSearchParams();
  if (state) query.set('state', state);
  const back = query.size > 0 ? `?${query}` : '';
  const before = page.query.get('before');
  if (before) query.set('before', before);
  const filter = html`<form method="get" action="${PATH}" class="card" aria-label="Delivery filter"><div class="row">
<div><label for="filter-state">State</label><select id="filter-state" name="state"><option value="">Any</option>
${STATES.map(([value, text]) => html`<option value="${value}"${value === state ? html` selected` : ''}>${text}</option>`)}</select></div>
<div class="fit"><button type="submit">Filter</button></div></div></form>`;
  const outcome = await page.operate(listWebhookDeliveries, { query });
  if (!outcome.ok) return html`<h2>Deliveries</h2>${filter}${refusalBox(outcome)}`;
  const { deliveries, next } = outcome.value;
  const list = deliveries.length === 0 ? html`<p>No delivery matches.</p>` : deliveries.map((d) => deliveryCard(d, page.session.csrf, back));
  const olderQuery = new URLSearchParams(state ? [['state', state]] : []);
  olderQuery.set('before', String(next));
  const older = next === null ? '' : html`<p><a href="${PATH}?${olderQuery.toString()}">Older deliveries</a></p>`;
  const replayFailed = html`<form method="post" action="${PATH}/deliveries/replay-failed">${csrfField(page.session.csrf)}<input type="hidden" name="back" value="${back}">
<button type="submit" class="secondary">Replay every failed delivery</button></form>`;
  return html`<h2>Deliveries, newest first</h2>${filter}${replayFailed}${list}${older}`;
}

async function render(page: PageRequest): Promise<Html> {
  const { csrf } = page.session;
  const outcome = await page.operate(listWebhookEndpoints);
  const endpoints = !outcome.ok
    ? refusalBox(outcome)
    : outcome.value.endpoints.length === 0
      ? html`<p>No endpoint: events are written nowhere else. Add one to have them sent.</p>`
      : outcome.value.endpoints.map((e) => endpointCard(e, csrf));
  return html`<h2>Endpoints</h2>${addForm(csrf)}${endpoints}${await deliveryLog(page)}`;
}

export const eventsPage: PageModule = {
  path: PATH,
  title: 'Events',
  render,
  actions: [
    {
      path: `${PATH}/endpoints`,
      async run(page, form) {
        const events = EVENT_TYPES.filter((type) => form[`event-${type}`] === 'on');
        const body = { url: form['url']?.trim() ?? '', events, format: form['format'] ?? 'standard' };
        const outcome = await page.operate(addWebhookEndpoint, { body });
        if (!outcome.ok) return failed(outcome);
        const added = outcome.value;
        const result = done(`Endpoint #${added.id} is added: ${added.url}.`);
        // The only time the secret is shown: the flash is shown once, then gone.
        result.flash.resolution = `Its signing secret, shown this once (keep it to verify the signatures): ${added.secret}`;
        return result;
      },
    },
    {
      path: `${PATH}/endpoints/:id/enabled`,
      async run(page, form, params) {
        const enabled = form['enabled'] !== 'false';
        const outcome = await page.operate(editWebhookEndpoint, { params: { id: params['id'] ?? '' }, body: { enabled } });
        if (!outcome.ok) return failed(outcome);
        return done(`Endpoint #${params['id']} is ${enabled ? 'enabled' : 'disabled: no new deliveries go to it'}.`);
      },
    },
    {
      path: `${PATH}/endpoints/:id/test`,
      async run(page, _form, params) {
        const outcome = await page.operate(sendWebhookTest, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        return done(`A webhook.test event is on its way to ${outcome.value.url}: delivery #${outcome.value.id}, in the log below.`);
      },
    },
    {
      path: `${PATH}/endpoints/:id/rotate-secret`,
      async run(page, _form, params) {
        const outcome = await page.operate(rotateWebhookSecret, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const rotated = outcome.value;
        const result = done(`Endpoint #${rotated.id} has a new signing secret; the old one signs too until ${rotated.previousSecretValidUntil ?? 'now'}.`);
        // The only time the new secret is shown, as on adding.
        result.flash.resolution = `Its new signing secret, shown this once: ${rotated.secret}`;
        return result;
      },
    },
    {
      path: `${PATH}/endpoints/:id/delete`,
      async run(page, _form, params) {
        const outcome = await page.operate(deleteWebhookEndpoint, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const { deleted, droppedDeliveries } = outcome.value;
        return done(`Endpoint #${deleted.id} (${deleted.url}) is deleted, with its ${droppedDeliveries} ${droppedDeliveries === 1 ? 'delivery' : 'deliveries'}.`);
      },
    },
    {
      path: `${PATH}/deliveries/replay-failed`,
      async run(page, form) {
        const back = keptQuery(form['back']);
        const outcome = await page.operate(replayFailedWebhookDeliveries);
        if (!outcome.ok) return failed(outcome, back);
        const { replayed, remaining } = outcome.value;
        return done(`${replayed} failed ${replayed === 1 ? 'delivery is' : 'deliveries are'} sent again now${remaining > 0 ? `; ${remaining} more failed: press again` : ''}.`, back);
      },
    },
    {
      path: `${PATH}/deliveries/:id/replay`,
      async run(page, form, params) {
        const back = keptQuery(form['back']);
        const outcome = await page.operate(replayWebhookDelivery, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome, back);
        const delivery = outcome.value;
        return done(`Delivery #${delivery.id} (${delivery.type}) will be sent again now to ${delivery.url}, from its first attempt.`, back);
      },
    },
  ],
};
