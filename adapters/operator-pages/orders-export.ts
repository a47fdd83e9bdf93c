/**
 * The Orders page's accounting export: a form of two UTC days (both included) and the CSV file of the paid
 * orders between them, read page by page from GET /orders/export.
 *
 * @module
 */
import { exportOrders, ORDER_EXPORT_COLUMNS } from '../../core/operator/order-export.ts';
import { DAY_MS } from '../../core/budgets/budgets.ts';
import { field } from './fields.ts';
import { html, type Html } from './html.ts';
import { csvFile } from './inbox-export.ts';
import type { PageFile } from './page-module.ts';

export const ORDERS_EXPORT_PATH = '/pages/orders/export.csv';

/**
 * The API's query for the form's days: `from` from its start, `to` to its end (the next day's start, excluded).
 * A day that is not YYYY-MM-DD is handed over as typed, for the API to refuse by name.
 */
function periodQuery(query: URLSearchParams): URLSearchParams {
  const api = new URLSearchParams();
  const day = (text: string | null, next: boolean) => {
    const typed = text?.trim() ?? '';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(typed) || Number.isNaN(Date.parse(typed))) return typed;
    return new Date(Date.parse(typed) + (next ? DAY_MS : 0)).toISOString();
  };
  const since = day(query.get('from'), false);
  const until = day(query.get('to'), true);
  if (since) api.set('since', since);
  if (until) api.set('until', until);
  return api;
}

/** The export form: GET, so it works without JavaScript and the file's address can be kept. */
export function exportForm(): Html {
  return html`<form method="get" action="${ORDERS_EXPORT_PATH}" class="card" aria-label="Export orders"><div class="row">
${field('export-from', 'from', 'From (UTC day)', { type: 'date', hint: 'Empty: from the first order.' })}
${field('export-to', 'to', 'To (UTC day, included)', { type: 'date', hint: 'Empty: up to now.' })}
<div class="fit"><button type="submit" class="secondary">Export as CSV</button></div></div>
<p class="meta">Paid orders, oldest first: session, paid at, buyer, SKU, amount, state, refunded amount.</p></form>`;
}

export const ordersExportFile: PageFile = {
  path: ORDERS_EXPORT_PATH,
  async serve(page) {
    const query = periodQuery(page.query);
    const read = (after: string) => {
      query.set('after', after);
      return page.operate(exportOrders, { query });
    };
    return csvFile(await page.operate(exportOrders, { query }), read, ORDER_EXPORT_COLUMNS, 'orders.csv', page.now);
  },
};
