/**
 * The outbox in memory: endpoints, events and deliveries as the SQL outbox keeps them (lost on restart,
 * like everything in memory storage). At most `maxDeliveries` are kept: the oldest finished ones go first.
 *
 * @module
 */
import type { AuditStore } from '../../core/ports/store-ports.ts';
import type { MailStore } from '../../core/ports/mail.ts';
import { keep, type Restorable } from './change.ts';
import { eventBody, TEST_EVENT_TYPE, type Delivery, type DeliveredType, type DueDelivery, type Emit, type OutboxStore, type WebhookEndpoint } from '../../core/ports/events.ts';

interface StoredEndpoint extends WebhookEndpoint {
  secret: string;
  previousSecret: string | null;
  previousUntil: number | null;
}

interface StoredDelivery extends Delivery {
  body: string;
}

const MAX_DELIVERIES = 10_000;

/** Writes what a change reports and answers the change's result (see `reportTo`). */
export type Report = <T>(result: T, emit: Emit<T> | undefined) => Promise<T>;

/**
 * What a store change reports, written with it: its event to the outbox, its entry to the audit trail, what
 * it mails to the mail outbox. In memory the change and what it reports are one step.
 */
export function reportTo(outbox: Pick<OutboxStore, 'enqueue'>, audit: Pick<AuditStore, 'record'>, mail?: Pick<MailStore, 'enqueue'>): Report {
  return async <T>(result: T, emit: Emit<T> | undefined): Promise<T> => {
    const pending = emit?.(result);
    if (pending?.event) await outbox.enqueue(pending.event, pending.at);
    if (pending?.audit) await audit.record(pending.audit);
    if (pending?.mail && mail) await mail.enqueue(pending.mail, pending.at);
    return result;
  };
}

/** The memory outbox, which also says whether an event of a type would be delivered anywhere. */
export interface MemoryOutbox extends OutboxStore, Restorable {
  /** Whether an enabled endpoint subscribes to `type`: a change with no listener need not draft its event. */
  wants(type: string): boolean;
}

/** Creates an empty outbox; the audit entries of its own changes (endpoints, replays) go to `audit`. */
export function createMemoryOutbox(maxDeliveries = MAX_DELIVERIES, audit: Pick<AuditStore, 'record'>): MemoryOutbox {
  const endpoints = new Map<number, StoredEndpoint>();
  const deliveries = new Map<number, StoredDelivery>();
  let nextDelivery = 1;
  let nextEndpoint = 1;

  const publicEndpoint = ({ secret: _secret, previousSecret: _previous, previousUntil: _until, ...endpoint }: StoredEndpoint): WebhookEndpoint => ({ ...endpoint, events: [...endpoint.events] });
  const view = ({ body: _body, ...delivery }: StoredDelivery): Delivery => ({ ...delivery, url: endpoints.get(delivery.endpointId)!.url });
  const wants = (endpoint: StoredEndpoint, type: string) =>
    endpoint.enabled && (endpoint.events.length === 0 || (endpoint.events as string[]).includes(type));
  /** Drops the oldest finished deliveries while over the cap; pending ones are never dropped. */
  const trim = () => {
    for (const [id, delivery] of deliveries) {
      if (deliveries.size <= maxDeliveries) return;
      if (delivery.state !== 'pending') deliveries.delete(id);
    }
  };

  const outbox: MemoryOutbox = {
    snapshot() {
      const restore = keep(endpoints, deliveries);
      const ids = { nextDelivery, nextEndpoint };
      return () => {
        restore();
        ({ nextDelivery, nextEndpoint } = ids);
      };
    },
    wants: (type) => [...endpoints.values()].some((endpoint) => wants(endpoint, type)),
    async addEndpoint(e, emit) {
      const id = nextEndpoint++;
      const endpoint: StoredEndpoint = { id, url: e.url, secret: e.secret, previousSecret: null, previousUntil: null, events: [...e.events], format: e.format, enabled: true, createdAt: e.createdAt };
      endpoints.set(id, endpoint);
      return report(publicEndpoint(endpoint), emit);
    },
    listEndpoints: async () => [...endpoints.values()].map(publicEndpoint),
    async updateEndpoint(id, change, emit) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      if (change.url !== undefined) endpoint.url = change.url;
      if (change.events !== undefined) endpoint.events = [...change.events];
      if (change.enabled !== undefined) endpoint.enabled = change.enabled;
      return report(publicEndpoint(endpoint), emit);
    },
    async enqueue(event, at) {
      write(event.type, eventBody(event, at), at, [...endpoints.values()].filter((endpoint) => wants(endpoint, event.type)));
    },
    async claimDue(now, leaseMs, limit, share) {
      const due: DueDelivery[] = [];
      const taken = new Map<number, number>(share?.inFlight ?? []);
      const ready = [...deliveries.values()]
        .filter((d) => d.state === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && endpoints.get(d.endpointId)!.enabled)
        .sort((a, b) => a.nextAttemptAt! - b.nextAttemptAt! || a.id - b.id);
      for (const d of ready) {
        if (due.length === limit) break;
        const busy = taken.get(d.endpointId) ?? 0;
        if (share && busy >= share.perEndpoint) continue;
        taken.set(d.endpointId, busy + 1);
        d.nextAttemptAt = now + leaseMs;
        const endpoint = endpoints.get(d.endpointId)!;
        const previousSecret = endpoint.previousUntil !== null && endpoint.previousUntil > now ? endpoint.previousSecret : null;
        due.push({ id: d.id, endpointId: d.endpointId, eventId: d.eventId, type: d.type, body: d.body, url: endpoint.url, secret: endpoint.secret, previousSecret, format: endpoint.format, attempts: d.attempts });
      }
      return due;
    },
    async recordAttempt(id, o) {
      const d = deliveries.get(id);
      if (!d) return;
      d.attempts++;
      d.lastAttemptAt = o.at;
      d.lastStatus = o.status;
      d.lastError = o.error;
      d.state = o.delivered ? 'delivered' : o.nextAttemptAt === null ? 'failed' : 'pending';
      d.deliveredAt = o.delivered ? o.at : null;
      d.nextAttemptAt = o.nextAttemptAt;
    },
    async listDeliveries(f) {
      return [...deliveries.values()]
        .filter((d) => (f.state === undefined || d.state === f.state) && (f.before === undefined || d.id < f.before))
        .sort((a, b) => b.id - a.id)
        .slice(0, f.limit)
        .map(view);
    },
    async replay(id, at, emit) {
      const d = deliveries.get(id);
      if (!d) return null;
      Object.assign(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null });
      return report(view(d), emit);
    },
    async replayFailed(at, limit, endpointId, emit) {
      const failed = [...deliveries.values()].filter((d) => d.state === 'failed' && (endpointId === null || d.endpointId === endpointId));
      const chosen = failed.sort((a, b) => a.id - b.id).slice(0, limit);
      for (const d of chosen) Object.assign(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null });
      return report({ replayed: chosen.length, remaining: failed.length - chosen.length }, emit);
    },
    async sendTest(endpointId, data, at, emit) {
      const endpoint = endpoints.get(endpointId);
      if (!endpoint) return null;
      const [id] = write(TEST_EVENT_TYPE, eventBody({ type: TEST_EVENT_TYPE, data }, at), at, [endpoint]);
      return report(view(deliveries.get(id!)!), emit);
    },
    async deleteEndpoint(id, emit) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      let dropped = 0;
      for (const [key, d] of deliveries) if (d.endpointId === id && deliveries.delete(key)) dropped++;
      endpoints.delete(id);
      return report({ endpoint: publicEndpoint(endpoint), dropped }, emit);
    },
    async rotateSecret(id, secret, previousUntil, emit) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      Object.assign(endpoint, { previousSecret: previousUntil === null ? null : endpoint.secret, previousUntil, secret });
      return report(publicEndpoint(endpoint), emit);
    },
  };
  /** Writes one event's deliveries to `targets` (none when there is none); their ids. */
  const write = (type: DeliveredType, body: string, at: number, targets: readonly StoredEndpoint[]): number[] => {
    const eventId = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    const ids = targets.map((endpoint) => {
      const id = nextDelivery++;
      deliveries.set(id, {
        id, eventId, type, endpointId: endpoint.id, url: endpoint.url, state: 'pending', attempts: 0, createdAt: at,
        nextAttemptAt: at, lastAttemptAt: null, lastStatus: null, lastError: null, deliveredAt: null, body,
      });
      return id;
    });
    trim();
    return ids;
  };
  const report = reportTo(outbox, audit);
  return outbox;
}
