/**
 * One step of the schema, as adapters/sql/migrations.ts lists it.
 *
 * @module
 */

/** One step of the schema: its number (never reused), what it changes, and its SQL (never edited once released). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
