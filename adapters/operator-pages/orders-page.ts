/**
 * The Orders page: find paid orders by the buyer's email or the session id, show one with its license
 * keys and the updates they cover, issue its Plus key (upgrade), revoke or reinstate its licenses with a
 * reason, and reconcile the sessions the provider has as paid with what this server fulfilled.
 *
 * @module
 */
import { listOrders, reconcileOrders, reinstateOrder, revokeOrder, showOrder, upgradeOrder } from '../../core/operator/orders.ts';
import { listOrderMails, resendOrderMail } from '../../core/operator/mail.ts';
import { failedMails, orderMails } from './order-mails.ts';
import { orderUpdates } from './order-updates.ts';
import { licenseUpdates } from '../../core/operator/license-updates.ts';
import { listFailedMails, retryMail } from '../../core/operator/mail-retry.ts';
import { exportForm, ordersExportFile } from './orders-export.ts';
import type { OrderView } from '../../core/operator/order-view.ts';
import { decodedParam } from '../../core/operator/path-param.ts';
import { field } from './fields.ts';
import { html, mailto, time, type Html } from './html.ts';
import { csrfField, refusalBox } from './layout.ts';
import { done, failed, type ActionResult, type PageModule, type PageRequest } from './page-module.ts';

const PATH = '/pages/orders';

type OrderAction = 'upgrade' | 'revoke' | 'reinstate' | 'resend';

/**
 * The query of a search: an email has an @; a license key starts with key/ or sim/, or is 100 characters or
 * more without its spaces (a session id is shorter); a session id starts with cs_; anything else is part of a name.
 */
function searchQuery(find: string): URLSearchParams {
  const text = find.trim();
  if (text === '') return new URLSearchParams();
  const compact = text.replace(/\s+/g, '');
  const by = text.includes('@') ? 'email' : /^(key|sim)\//.test(compact) || compact.length >= 100 ? 'key' : text.startsWith('cs_') ? 'session' : 'name';
  return new URLSearchParams([[by, text]]);
}

/** What an order paid ("49.00 USD"), or null when it is not known. */
const paidAmount = (order: OrderView) => (order.amount === null ? null : `${order.amount}${order.currency ? ` ${order.currency}` : ''}`);

/** What the licenses of an order are: none yet, valid, or revoked and why. */
function licenseBadge(order: OrderView): Html {
  if (order.licenses === 'revoked') return html`<span class="badge strong">Licenses revoked (${order.revokedBecause ?? 'revoked'})</span>`;
  return html`<span class="badge">${order.licenses === 'none' ? 'No keys yet' : 'Licenses valid'}</span>`;
}

const orderLink = (session: string) => `${PATH}?${new URLSearchParams([['order', session]]).toString()}`;

function orderCard(order: OrderView): Html {
  const { email, name, country } = order.buyer;
  const buyer = [email ? mailto(email) : null, name || null, country || null].filter((part) => part !== null).map((part, i) => html`${i ? ' · ' : ''}${part}`);
  return html`<article class="card" aria-labelledby="order-${order.session}">
<h3 id="order-${order.session}" class="wrap"><a href="${orderLink(order.session)}">${order.session}</a></h3>
<p class="meta"><span class="badge">${order.product}</span> <span class="badge">${order.state}</span> ${licenseBadge(order)}</p>
<p class="description">${buyer.length ? buyer : 'No buyer details'}${order.paidAt ? html` · paid ${time(order.paidAt)}` : ''}${paidAmount(order) ? ` · ${paidAmount(order)}` : ''}</p>
</article>`;
}

function searchForm(find: string): Html {
  return html`<form method="get" action="${PATH}" class="card" role="search" aria-label="Find orders"><div class="row">
${field('find', 'find', 'Email, name, license key or session id', { value: find, hint: 'An email finds every order of that buyer (any case); a pasted license key its order; cs_… one session; anything else part of a buyer\'s name.' })}
<div class="fit"><button type="submit">Find</button></div></div></form>`;
}

function reconcileForm(csrf: string): Html {
  return html`<form method="post" action="${PATH}/reconcile" class="card">${csrfField(csrf)}
<p class="meta">Fulfil what the payment provider has as paid over the last 7 days that this server did not fulfil.</p>
<button type="submit" class="secondary">Reconcile</button></form>`;
}

/** A form that changes the order: a button, and a reason field for revoke and reinstate. */
function orderAction(order: OrderView, csrf: string, action: OrderAction, label: string): Html {
  const target = `${PATH}/${encodeURIComponent(order.session)}/${action}`;
  const reason = action === 'upgrade' || action === 'resend' ? '' : field(`${action}-reason`, 'reason', `Reason to ${action} (optional)`);
  return html`<form method="post" action="${target}" class="row">${csrfField(csrf)}${reason}
<div class="fit"><button type="submit"${action === 'revoke' ? html` class="danger"` : ''}>${label}</button></div></form>`;
}

function orderDetail(order: OrderView, csrf: string): Html {
  const keys = order.keys.length === 0
    ? html`<p>No license keys are issued for this order.</p>`
    : html`<ul>${order.keys.map((k) => html`<li><span class="badge">${k.product}</span> <code>${k.key}</code> · ${k.state}</li>`)}</ul>`;
  const override = order.override
    ? html`<p class="meta">${order.override.action === 'revoked' ? 'Revoked' : 'Reinstated'} by the operator${order.override.at ? html` ${time(order.override.at)}` : ''}${order.override.reason ? `: ${order.override.reason}` : ''}</p>`
    : '';
  const standing = [order.refunded && 'refunded', order.disputed && (order.disputeWon ? 'disputed, dispute won' : 'disputed')].filter(Boolean).join(', ');
  const paid = order.state === 'paid';
  const revoked = order.licenses === 'revoked';
  const hasPlus = order.keys.some((k) => k.product === 'plus');
  return html`<section class="card" aria-labelledby="order-detail">
<h2 id="order-detail" class="wrap">Order ${order.session}</h2>
<p class="meta"><span class="badge">${order.product}</span> <span class="badge">${order.state}</span> ${licenseBadge(order)}${standing ? html` <span class="badge">${standing}</span>` : ''}</p>
<p class="description">Buyer: ${order.buyer.email ? mailto(order.buyer.email) : 'no email'}${order.buyer.name ? ` · ${order.buyer.name}` : ''}${order.buyer.country ? ` · ${order.buyer.country}` : ''}
Created ${order.createdAt ? time(order.createdAt) : '—'}${order.paidAt ? html` · paid ${time(order.paidAt)}` : ''}${order.paymentRef ? ` · payment ${order.paymentRef}` : ''}
Amount: ${paidAmount(order) ?? 'not known (paid before amounts were kept)'}</p>
${override}
<h3>License keys</h3>
${keys}
${paid ? html`<div class="actions">
${!revoked && !hasPlus ? orderAction(order, csrf, 'upgrade', 'Upgrade to Plus') : ''}
${!revoked && order.keys.length > 0 && order.buyer.email ? orderAction(order, csrf, 'resend', 'Mail the keys again') : ''}
${revoked ? orderAction(order, csrf, 'reinstate', 'Reinstate') : orderAction(order, csrf, 'revoke', 'Revoke')}
</div>` : html`<p>The session is not paid: nothing can be changed.</p>`}
</section>`;
}

async function render(page: PageRequest): Promise<Html> {
  const find = page.query.get('find') ?? '';
  const chosen = page.query.get('order');
  const { csrf } = page.session;
  let detail: Html | string = '';
  if (chosen) {
    // Path segments are handed over as sent, percent-encoded.
    const shown = await page.operate(showOrder, { params: { session: encodeURIComponent(chosen) } });
    detail = shown.ok ? orderDetail(shown.value, csrf) : refusalBox(shown);
    if (shown.ok) {
      // An order with keys shows the updates they cover (GET /licenses/updates of its session).
      const updates = shown.value.keys.length === 0 ? null : await page.operate(licenseUpdates, { query: new URLSearchParams([['session', chosen]]) });
      const covered = updates === null ? '' : updates.ok ? orderUpdates(updates.value) : refusalBox(updates);
      const mails = await page.operate(listOrderMails, { params: { session: encodeURIComponent(chosen) } });
      detail = html`${detail}${covered}${mails.ok ? orderMails(mails.value, PATH, csrf) : refusalBox(mails)}`;
    }
  }
  const failing = await page.operate(listFailedMails, { query: new URLSearchParams() });
  const failed = failing.ok ? failedMails(failing.value.mails, PATH, csrf) : refusalBox(failing);
  const listed = await page.operate(listOrders, { query: searchQuery(find) });
  if (!listed.ok) return html`${searchForm(find)}${refusalBox(listed)}${detail}${failed}${reconcileForm(csrf)}`;
  const { orders } = listed.value;
  const heading = find.trim() ? `Orders of ${find.trim()} (${orders.length})` : `Latest paid orders (${orders.length})`;
  const list = orders.length === 0 ? html`<p>No paid order matches.</p>` : orders.map(orderCard);
  return html`${searchForm(find)}${detail}${failed}<h2>${heading}</h2>${list}<h2>Export for accounting</h2>${exportForm()}<h2>Reconcile with the provider</h2>${reconcileForm(csrf)}`;
}

/** An action on one order: the operation, then back to that order with what it did. */
function orderChange(action: 'upgrade' | 'revoke' | 'reinstate', said: (order: OrderView) => string) {
  return {
    path: `${PATH}/:session/${action}`,
    async run(page: PageRequest, form: Record<string, string>, params: Record<string, string>): Promise<ActionResult> {
      const sent = params['session'] ?? '';
      const back = `?${new URLSearchParams([['order', decodedParam(sent)]]).toString()}`;
      const reason = form['reason']?.trim();
      const body = reason ? { reason } : {};
      const outcome =
        action === 'upgrade'
          ? await page.operate(upgradeOrder, { params: { session: sent } })
          : await page.operate(action === 'revoke' ? revokeOrder : reinstateOrder, { params: { session: sent }, body });
      return outcome.ok ? done(said(outcome.value), back) : failed(outcome, back);
    },
  };
}


export const ordersPage: PageModule = {
  path: PATH,
  title: 'Orders',
  render,
  files: [ordersExportFile],
  actions: [
    {
      path: `${PATH}/reconcile`,
      async run(page) {
        const outcome = await page.operate(reconcileOrders, { body: {} });
        if (!outcome.ok) return failed(outcome);
        const r = outcome.value;
        const fulfilled = r.fulfilled.length === 0 ? 'none fulfilled now' : `fulfilled now: ${r.fulfilled.join(', ')}`;
        const message = `Reconciled since ${r.since}: ${r.checked} paid at the provider, ${fulfilled}; ${r.alreadyFulfilled} already fulfilled, ${r.unknown} not created here.`;
        const flash = done(message);
        if (!r.complete) flash.flash.resolution = 'The provider had more paid sessions than one reconcile reads: reconcile again.';
        return flash;
      },
    },
    orderChange('upgrade', (o) => `${o.session} has its Plus key.`),
    orderChange('revoke', (o) => `The licenses of ${o.session} are revoked.`),
    orderChange('reinstate', (o) => `The licenses of ${o.session} are reinstated.`),
    {
      path: `${PATH}/mails/:id/retry`,
      async run(page: PageRequest, _form: Record<string, string>, params: Record<string, string>): Promise<ActionResult> {
        const outcome = await page.operate(retryMail, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const mail = outcome.value;
        const back = mail.session === null ? undefined : `?${new URLSearchParams([['order', mail.session]]).toString()}`;
        return done(`Mail ${mail.id} to ${mail.to} is queued to be sent again.`, back);
      },
    },
    {
      path: `${PATH}/:session/resend`,
      async run(page: PageRequest, _form: Record<string, string>, params: Record<string, string>): Promise<ActionResult> {
        const sent = params['session'] ?? '';
        const back = `?${new URLSearchParams([['order', decodedParam(sent)]]).toString()}`;
        const outcome = await page.operate(resendOrderMail, { params: { session: sent } });
        return outcome.ok ? done(`The keys of ${decodedParam(sent)} are queued to ${outcome.value.to}.`, back) : failed(outcome, back);
      },
    },
  ],
};
