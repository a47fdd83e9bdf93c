/**
 * The Numbers page: GET /stats over the last 30 or 365 UTC days (a switch of two links; any `days` the
 * API takes works too): downloads, update checks and feedback per day as server-drawn charts, each with
 * its numbers as a table, and the sums by release, source, platform, feedback type and rating; paid
 * orders per day by product, the revenue per currency, the refunds and disputes among them and the
 * revenue net of those; who runs which version (versions-card.ts).
 *
 * @module
 */
import type * as v from 'valibot';
import { getStats, type StatsSchema } from '../../core/operator/stats.ts';
import { chartCard } from './chart.ts';
import { html, type Html } from './html.ts';
import { TYPE_NAMES } from './inbox-page.ts';
import type { PageModule, PageRequest } from './page-module.ts';
import { refusalBox } from './layout.ts';
import { versionsCard } from './versions-card.ts';

type Stats = v.InferOutput<typeof StatsSchema>;

const PATH = '/pages/numbers';
const RANGES = [30, 365] as const;
/** Up to this many days, the per-day tables are shown open; longer ones are collapsed. */
const OPEN_TABLE_DAYS = 31;

const SOURCE_NAMES: Record<string, string> = { none: 'No source', other: 'Other (not in the config file)' };
const PLATFORM_NAMES: Record<string, string> = { windows: 'Windows', other: 'Other' };
const ratingName = (rating: string) => (rating === 'none' ? 'No rating' : `${rating} of 5`);

/** A small table of sums: one row per value, its count and share of the total, largest first. */
function breakdown(id: string, caption: string, label: string, sums: Record<string, number>, name: (key: string) => string = (k) => k): Html {
  const entries = Object.entries(sums);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  const rows =
    entries.length === 0
      ? html`<tr><td colspan="3" class="none">None in this range.</td></tr>`
      : entries.map(([key, count]) => html`<tr><th scope="row">${name(key)}</th><td>${count}</td><td>${Math.round((count / total) * 100)}%</td></tr>`);
  return html`<table id="${id}" class="breakdown"><caption>${caption}</caption>
<thead><tr><th scope="col">${label}</th><th scope="col">Count</th><th scope="col">Share</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

const PRODUCT_NAMES: Record<string, string> = { standard: 'Standard', plus_addon: 'Plus add-on', plus_bundle: 'Standard with Plus' };

/** What the paid orders brought per currency, exactly as the API sums it; orders of unknown amount are left out. */
function revenueTable(revenue: Record<string, string>, id = 'orders-revenue', caption = 'Revenue'): Html {
  const entries = Object.entries(revenue);
  const rows =
    entries.length === 0
      ? html`<tr><td colspan="2" class="none">None in this range.</td></tr>`
      : entries.map(([currency, amount]) => html`<tr><th scope="row">${currency}</th><td>${amount}</td></tr>`);
  return html`<table id="${id}" class="breakdown"><caption>${caption}</caption>
<thead><tr><th scope="col">Currency</th><th scope="col">Amount</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Of the orders paid in the range, those refunded in full and those disputed. */
function refundsTable(orders: Stats['orders']): Html {
  return html`<table id="orders-refunds" class="breakdown"><caption>Refunds and disputes</caption>
<thead><tr><th scope="col">Of these orders</th><th scope="col">Count</th></tr></thead>
<tbody><tr><th scope="row">Refunded in full</th><td>${orders.refunded}</td></tr><tr><th scope="row">Disputed</th><td>${orders.disputed}</td></tr></tbody></table>`;
}

/** The mails written in the range, by what came of them. */
function mailTable(mail: Stats['mail']): Html {
  const row = (name: string, count: number) => html`<tr><th scope="row">${name}</th><td>${count}</td></tr>`;
  return html`<section class="card" aria-labelledby="mail-heading"><h2 id="mail-heading">Mail</h2>
<table id="mail-counts" class="breakdown"><caption>Mails written in this range</caption>
<thead><tr><th scope="col">State</th><th scope="col">Count</th></tr></thead>
<tbody>${row('Sent', mail.sent)}${row('Failed (given up)', mail.failed)}${row('Not sent yet', mail.pending)}</tbody></table></section>`;
}

function rangeSwitch(days: number): Html {
  const links = RANGES.map(
    (range) => html`<li><a href="${PATH}?days=${range}"${range === days ? html` aria-current="true"` : ''}>Last ${range} days</a></li>`,
  );
  return html`<nav class="range" aria-label="Range"><ul>${links}</ul></nav>`;
}

function totals(stats: Stats): Html {
  const item = (name: string, value: number) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`;
  return html`<dl class="totals">${item('Downloads', stats.downloads.total)}${item('Update checks', stats.updateChecks.total)}${item('Paid orders', stats.orders.total)}${item('Feedback', stats.feedback.total)}${item('Refunds', stats.orders.refunded)}${item('Disputes', stats.orders.disputed)}${item('Mails sent', stats.mail.sent)}${item('Mails failed', stats.mail.failed)}</dl>`;
}

async function render(page: PageRequest): Promise<Html> {
  const asked = page.query.get('days');
  const query = new URLSearchParams(asked === null ? [] : [['days', asked]]);
  const outcome = await page.operate(getStats, { query });
  const shownDays = asked !== null && /^\d{1,3}$/.test(asked) ? Number(asked) : 30;
  if (!outcome.ok) return html`${rangeSwitch(shownDays)}${refusalBox(outcome)}`;
  const stats = outcome.value;
  const open = stats.downloads.days.length <= OPEN_TABLE_DAYS;
  const { downloads, updateChecks, orders, feedback } = stats;
  return html`${rangeSwitch(stats.downloads.days.length)}
<p class="meta">From ${stats.from} to ${stats.to} (UTC days, today included).</p>
${totals(stats)}
${chartCard({ id: 'downloads', title: 'Downloads', days: downloads.days }, downloads.total, open, html`<div class="grid">
${breakdown('downloads-release', 'Downloads by release', 'Release', downloads.release)}
${breakdown('downloads-source', 'Downloads by source', 'Source', downloads.source ?? {}, (k) => SOURCE_NAMES[k] ?? k)}
${breakdown('downloads-platform', 'Downloads by platform', 'Platform', downloads.platform, (k) => PLATFORM_NAMES[k] ?? k)}
</div>`)}
${chartCard({ id: 'update-checks', title: 'Update checks', days: updateChecks.days }, updateChecks.total, open, html`<div class="grid">
${breakdown('update-checks-release', 'Update checks by release served', 'Release', updateChecks.release)}
${breakdown('update-checks-platform', 'Update checks by platform', 'Platform', updateChecks.platform, (k) => PLATFORM_NAMES[k] ?? k)}
</div>`)}
${chartCard({ id: 'orders', title: 'Paid orders', days: orders.days }, orders.total, open, html`<div class="grid">
${breakdown('orders-product', 'Paid orders by product', 'Product', orders.product, (k) => PRODUCT_NAMES[k] ?? k)}
${revenueTable(orders.revenue)}
${refundsTable(orders)}
${revenueTable(orders.netRevenue, 'orders-net-revenue', 'Revenue net of refunds and disputes')}
</div>`)}
${chartCard({ id: 'feedback', title: 'Feedback', days: feedback.days }, feedback.total, open, html`<div class="grid">
${breakdown('feedback-type', 'Feedback by type', 'Type', feedback.type, (k) => TYPE_NAMES[k] ?? k)}
${breakdown('feedback-rating', 'Feedback by rating', 'Rating', feedback.rating, ratingName)}
</div>`)}
${versionsCard(stats.versions, open)}
${mailTable(stats.mail)}`;
}

export const numbersPage: PageModule = { path: PATH, title: 'Numbers', render, actions: [] };
