/**
 * An order's messages on the Orders page: each with its state and, opened, its plain-text part as the
 * buyer gets (or, with mail off, would get) it.
 *
 * @module
 */
import type * as v from 'valibot';
import type { OrderMailsSchema } from '../../core/operator/mail.ts';
import { html, time, type Html } from './html.ts';

type OrderMails = v.InferOutput<typeof OrderMailsSchema>;

const STATES: Record<string, string> = { pending: 'Not sent yet', sent: 'Sent', failed: 'Failed (given up)' };

/** The Mail section of an order. */
export function orderMails({ mailOn, mails }: OrderMails): Html {
  const off = mailOn ? '' : html`<p class="meta">Mail is off (SMTP_URL is not set): these messages are kept here and never sent.</p>`;
  const list =
    mails.length === 0
      ? html`<p>No message for this order.</p>`
      : mails.map(
          (m) => html`<details class="mail"><summary><span class="badge">${mailOn ? (STATES[m.state] ?? m.state) : 'Would have been sent'}</span> ${m.subject} · to ${m.to} · ${time(m.createdAt)}${m.sentAt ? html` · sent ${time(m.sentAt)}` : ''}${m.lastError ? ` · last error: ${m.lastError}` : ''}</summary>
<pre class="wrap">${m.text}</pre></details>`,
        );
  return html`<section class="card" aria-labelledby="order-mails"><h3 id="order-mails">Mail to the buyer</h3>${off}${list}</section>`;
}
