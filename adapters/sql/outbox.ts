/**
 * The outbox of outbound events in PostgreSQL and PGlite: endpoints, events and deliveries (migration 10).
 * Deliveries are claimed with `for update skip locked` and a lease, so several instances on one database
 * share the sending without sending one delivery twice at once.
 *
 * @module
 */
import {
  type Delivery,
  type DueDelivery,
  eventBody,
  type EventDraft,
  type FailedReplay,
  type OutboxStore,
  type WebhookEndpoint,
} from '../../core/ports/events.ts';
import { DELETE_ENDPOINT, ENDPOINT, REPLAY_FAILED, ROTATE_SECRET, SEND_TEST, testEventParams } from './outbox-operations.ts';
import type { SqlClient, SqlSession } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const ADD_ENDPOINT = `
insert into webhook_endpoints (url, secret, events, format, created_at)
values ($1::text, $2::text, $3::text[], $4::text, ${fromEpochMs('$5')}) returning ${ENDPOINT}`;
const LIST_ENDPOINTS = `select ${ENDPOINT} from webhook_endpoints order by id`;
const UPDATE_ENDPOINT = `
update webhook_endpoints set url = coalesce($2::text, url), events = coalesce($3::text[], events), enabled = coalesce($4::boolean, enabled)
where id = $1::int returning ${ENDPOINT}`;

const ENQUEUE = `select enqueue_event($1::text, $2::text, ${fromEpochMs('$3')})`;

const DELIVERY = `d.id::int as id, e.event_id as "eventId", e.type, d.endpoint_id as "endpointId", w.url, d.state, d.attempts,
  ${epochMs('e.created_at')} as "createdAt", ${epochMs('d.next_attempt_at')} as "nextAttemptAt",
  ${epochMs('d.last_attempt_at')} as "lastAttemptAt", d.last_status as "lastStatus", d.last_error as "lastError",
  ${epochMs('d.delivered_at')} as "deliveredAt"`;
const FROM_DELIVERIES = `webhook_deliveries d join outbound_events e on e.id = d.event_id join webhook_endpoints w on w.id = d.endpoint_id`;

// Due deliveries of enabled endpoints, numbered per endpoint; each endpoint gets at most $4 less what this
// instance has in flight to it ($5 ids, $6 counts); then locked, skipping those another instance holds.
const CLAIM = `
with ready as (
  select d.id, d.endpoint_id, d.next_attempt_at,
    row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.id) as n
  from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
  where d.state = 'pending' and d.next_attempt_at <= ${fromEpochMs('$1')} and w.enabled
), chosen as (
  select r.id from ready r left join unnest($5::int[], $6::int[]) as busy(endpoint_id, count) on busy.endpoint_id = r.endpoint_id
  where r.n <= $4::int - coalesce(busy.count, 0)
  order by r.next_attempt_at, r.id
  limit $3::int
), due as (
  select id from webhook_deliveries
  where id in (select id from chosen) and state = 'pending' and next_attempt_at <= ${fromEpochMs('$1')}
  for update skip locked
), leased as (
  update webhook_deliveries d set next_attempt_at = ${fromEpochMs('$2')}
  from due where d.id = due.id
  returning d.id, d.event_id, d.endpoint_id, d.attempts
)
select l.id::int as id, l.endpoint_id as "endpointId", e.event_id as "eventId", e.type, e.body, w.url, w.secret,
  case when w.previous_secret_until > ${fromEpochMs('$1')} then w.previous_secret end as "previousSecret", w.format, l.attempts
from leased l join outbound_events e on e.id = l.event_id join webhook_endpoints w on w.id = l.endpoint_id
order by l.id`;

const RECORD_ATTEMPT = `
update webhook_deliveries set
  attempts = attempts + 1,
  last_attempt_at = ${fromEpochMs('$2')},
  last_status = $3::int,
  last_error = $4::text,
  state = case when $5::boolean then 'delivered' when $6::float8 is null then 'failed' else 'pending' end,
  delivered_at = case when $5::boolean then ${fromEpochMs('$2')} else null end,
  next_attempt_at = ${fromEpochMs('$6')}
where id = $1::bigint`;

const REPLAY = `
update webhook_deliveries set state = 'pending', attempts = 0, next_attempt_at = ${fromEpochMs('$2')}, delivered_at = null
where id = $1::bigint returning id`;

/** Writes one event inside the caller's statement or transaction (`db`). */
export async function enqueueEvent(db: SqlSession, event: EventDraft, at: number): Promise<void> {
  await db.query(ENQUEUE, [event.type, eventBody(event, at), at]);
}

/**
 * Whether an endpoint is enabled, as the only client of a database (PGlite) knows it: read once, and
 * again after each endpoint change. A change forgets it before its own statement is queued, and the
 * database runs statements in call order, so a write that checks `now()` and queues its statement in the
 * same turn never misses an endpoint added before it.
 */
export class EndpointsKnown {
  readonly #db: SqlSession;
  #enabled: boolean | null = null;
  #generation = 0;

  constructor(db: SqlSession) {
    this.#db = db;
  }

  /** Whether an endpoint is enabled; null when unknown since the last change (`read` it). */
  now(): boolean | null {
    return this.#enabled;
  }

  /** Reads it from the database, unless a change came in the meantime. */
  async read(): Promise<void> {
    const generation = this.#generation;
    const [row] = await this.#db.query<{ enabled: boolean }>('select exists (select 1 from webhook_endpoints where enabled) as enabled');
    if (generation === this.#generation) this.#enabled = row!.enabled;
  }

  /** An endpoint was added or changed. */
  forget(): void {
    this.#enabled = null;
    this.#generation++;
  }
}

/**
 * Creates the outbox store over a database (or over a change's transaction: change.ts).
 *
 * @param known What to tell when endpoints change (an exclusive storage's `EndpointsKnown`).
 */
export function createSqlOutbox(db: SqlClient, known?: Pick<EndpointsKnown, 'forget'>): OutboxStore {
  const delivery = async (session: SqlSession, id: number) =>
    (await session.query<Delivery>(`select ${DELIVERY} from ${FROM_DELIVERIES} where d.id = $1::bigint`, [id]))[0] ?? null;
  return {
    async addEndpoint(e) {
      known?.forget();
      return (await db.write<WebhookEndpoint>(ADD_ENDPOINT, [e.url, e.secret, e.events, e.format, e.createdAt]))[0]!;
    },
    listEndpoints: () => db.query<WebhookEndpoint>(LIST_ENDPOINTS),
    async updateEndpoint(id, change) {
      known?.forget();
      const params = [id, change.url ?? null, change.events ?? null, change.enabled ?? null];
      return (await db.write<WebhookEndpoint>(UPDATE_ENDPOINT, params))[0] ?? null;
    },
    enqueue: (event, at) => enqueueEvent(db, event, at),
    claimDue: (now, leaseMs, limit, share) => {
      const busy = [...(share?.inFlight ?? [])];
      const params = [now, now + leaseMs, limit, share?.perEndpoint ?? limit, busy.map(([id]) => String(id)), busy.map(([, count]) => String(count))];
      return db.write<DueDelivery>(CLAIM, params);
    },
    async recordAttempt(id, o) {
      await db.write(RECORD_ATTEMPT, [id, o.at, o.status, o.error, o.delivered, o.nextAttemptAt]);
    },
    listDeliveries: (filter) =>
      db.query<Delivery>(
        `select ${DELIVERY} from ${FROM_DELIVERIES}
         where ($1::text is null or d.state = $1::text) and ($2::bigint is null or d.id < $2::bigint)
         order by d.id desc limit $3::int`,
        [filter.state ?? null, filter.before ?? null, filter.limit],
      ),
    replay: async (id, at) => ((await db.write<{ id: number }>(REPLAY, [id, at])).length === 0 ? null : delivery(db, id)),
    replayFailed: async (at, limit, endpointId) => (await db.write<FailedReplay>(REPLAY_FAILED, [at, limit, endpointId]))[0]!,
    async sendTest(endpointId, data, at) {
      const [sent] = await db.write<{ id: number }>(SEND_TEST, testEventParams(endpointId, data, at));
      return sent ? delivery(db, sent.id) : null;
    },
    async deleteEndpoint(id) {
      known?.forget();
      const [row] = await db.write<WebhookEndpoint & { dropped: number }>(DELETE_ENDPOINT, [id]);
      if (!row) return null;
      const { dropped, ...endpoint } = row;
      return { endpoint, dropped };
    },
    rotateSecret: async (id, secret, previousUntil) => (await db.write<WebhookEndpoint>(ROTATE_SECRET, [id, secret, previousUntil]))[0] ?? null,
  };
}
