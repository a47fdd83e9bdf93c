/**
 * `converter-site-api orders export [--since ISO] [--until ISO] [--out FILE]`: the paid orders of a period as
 * CSV for accounting (the Orders page's file), read page by page from GET /orders/export of the operator API.
 *
 * @module
 */
import { resolve } from 'node:path';
import { csvLine } from '../../core/formats/csv.ts';
import { exportOrders, ORDER_EXPORT_COLUMNS } from '../../core/operator/order-export.ts';
import { EXIT, type Io } from './command.ts';
import { toFile } from './export.ts';
import { callOperator, prepare } from './operator-api.ts';

/** Thrown inside a file's writing when a later page is refused: the partial file is removed. */
class RefusedPage extends Error {
  constructor(readonly exit: number) {
    super('a page of the export was refused');
  }
}

/**
 * Writes every page as CSV to stdout, or to FILE once complete (a refused page leaves no file).
 *
 * @returns The exit code.
 */
export async function exportOrdersCsv(period: { since?: string | undefined; until?: string | undefined }, out: string | undefined, io: Io): Promise<number> {
  const produce = async (write: (text: string) => void) => {
    write(ORDER_EXPORT_COLUMNS.join(',') + '\r\n');
    let after: string | null | undefined;
    while (after !== null) {
      const page = await callOperator('orders', prepare(exportOrders, { query: { ...period, after, limit: '500' } }), io);
      if ('exit' in page) throw new RefusedPage(page.exit);
      write(page.value.entries.map((row) => csvLine(row, ORDER_EXPORT_COLUMNS)).join(''));
      after = page.value.next;
    }
  };
  try {
    await (out === undefined ? produce(io.stdout) : toFile(resolve(out), produce));
  } catch (error) {
    if (error instanceof RefusedPage) return error.exit;
    throw error;
  }
  return EXIT.ok;
}
