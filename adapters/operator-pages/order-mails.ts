/**
 * Mail on the Orders page: an order's messages, each with its state and, opened, its plain-text part as
 * the buyer gets (or, with mail off, would get) it; a failed one with a button to send it again (at most
 * once an hour, POST /mails/{id}/retry); and the failed mails of every order, when there are any.
 *
 * @module
 */
import type * as v from 'valibot';
import type { MailView, OrderMailsSchema } from '../../core/operator/mail.ts';
import { html, time, type Html } from './html.ts';
import { csrfField } from './layout.ts';

type OrderMails = v.InferOutput<typeof OrderMailsSchema>;

const STATES: Record<string, string> = { pending: 'Not sent yet', sent: 'Sent', failed: 'Failed (given up)' };

/** Where a failed mail is sent again from the page. */
export const retryPath = (pagePath: string, id: number) => `${pagePath}/mails/${id}/retry`;

function retryForm(pagePath: string, m: MailView, csrf: string): Html {
  const last = m.retriedAt ? html` <span class="meta">(sent again ${time(m.retriedAt)})</span>` : '';
  return html`<form method="post" action="${retryPath(pagePath, m.id)}" class="row">${csrfField(csrf)}
<div class="fit"><button type="submit" class="secondary">Send again</button>${last}</div></form>`;
}

/** The Mail section of an order. */
export function orderMails({ mailOn, mails }: OrderMails, pagePath: string, csrf: string): Html {
  const off = mailOn ? '' : html`<p class="meta">Mail is off (SMTP_URL is not set): these messages are kept here and never sent.</p>`;
  const list =
    mails.length === 0
      ? html`<p>No message for this order.</p>`
      : mails.map(
          (m) => html`<details class="mail"><summary><span class="badge">${mailOn ? (STATES[m.state] ?? m.state) : 'Would have been sent'}</span> ${m.subject} · to ${m.to} · ${time(m.createdAt)}${m.sentAt ? html` · sent ${time(m.sentAt)}` : ''}${m.lastError ? ` · last error: ${m.lastError}` : ''}</summary>
<pre class="wrap">${m.text}</pre></details>${mailOn && m.state === 'failed' ? retryForm(pagePath, m, csrf) : ''}`,
        );
  return html`<section class="card" aria-labelledby="order-mails"><h3 id="order-mails">Mail to the buyer</h3>${off}${list}</section>`;
}

/** The failed mails of every order, newest first, each with its order and a button to send it again; nothing when none failed. */
export function failedMails(mails: readonly MailView[], pagePath: string, csrf: string): Html | string {
  if (mails.length === 0) return '';
  const rows = mails.map((m) => {
    const order = m.session === null ? '' : html` · <a href="${pagePath}?${new URLSearchParams([['order', m.session]]).toString()}">order</a>`;
    return html`<li><span class="badge">${m.kind}</span> ${m.subject} · to ${m.to} · ${time(m.createdAt)}${order}${m.lastError ? ` · ${m.lastError}` : ''}${retryForm(pagePath, m, csrf)}</li>`;
  });
  return html`<section class="card" aria-labelledby="failed-mails"><h2 id="failed-mails">Failed mails (${mails.length})</h2>
<p class="meta">The mail relay refused these for good. Fix what it said, then send each again (at most once an hour).</p><ul>${rows}</ul></section>`;
}
