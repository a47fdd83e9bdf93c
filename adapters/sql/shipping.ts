/**
 * The shipping records in PostgreSQL and PGlite (core/ports/shipping-store.ts).
 *
 * @module
 */
import type { ReachedEveryone, ShippingStore } from '../../core/ports/shipping-store.ts';
import type { SqlClient } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const LIST = `select version, ${epochMs('reached_at')} as at from releases_reached_everyone`;
// First insert wins: the update that changes nothing makes the row come back either way.
const RECORD = `insert into releases_reached_everyone (version, reached_at) values ($1::text, ${fromEpochMs('$2')})
on conflict (version) do update set version = excluded.version returning ${epochMs('reached_at')} as at`;

/** Creates the shipping store over a database. */
export function createSqlShipping(db: SqlClient): ShippingStore {
  return {
    reachedEveryone: () => db.query<ReachedEveryone>(LIST),
    async recordReachedEveryone(version, at) {
      const [row] = await db.write<{ at: number }>(RECORD, [version, at]);
      return row!.at;
    },
  };
}
