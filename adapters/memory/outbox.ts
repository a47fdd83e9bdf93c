/**
 * The outbox in memory: endpoints, events and deliveries as the SQL outbox keeps them (lost on restart,
 * like everything in memory storage). At most `maxDeliveries` are kept: the oldest finished ones go first.
 *
 * @module
 */
import type { AuditStore } from '../../core/ports/store-ports.ts';
import type { MailStore } from '../../core/ports/mail.ts';
import { eventBody, type Delivery, type DueDelivery, type Emit, type OutboxStore, type WebhookEndpoint } from '../../core/ports/events.ts';

interface StoredEndpoint extends WebhookEndpoint {
  secret: string;
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
export interface MemoryOutbox extends OutboxStore {
  /** Whether an enabled endpoint subscribes to `type`: a change with no listener need not draft its event. */
  wants(type: string): boolean;
}

/** Creates an empty outbox; the audit entries of its own changes (endpoints, replays) go to `audit`. */
export function createMemoryOutbox(maxDeliveries = MAX_DELIVERIES, audit: Pick<AuditStore, 'record'>): MemoryOutbox {
  const endpoints: StoredEndpoint[] = [];
  const deliveries = new Map<number, StoredDelivery>();
  let nextDelivery = 1;

  const publicEndpoint = ({ secret: _secret, ...endpoint }: StoredEndpoint): WebhookEndpoint => ({ ...endpoint, events: [...endpoint.events] });
  const view = ({ body: _body, ...delivery }: StoredDelivery): Delivery => ({ ...delivery, url: endpoints[delivery.endpointId - 1]!.url });
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
    wants: (type) => endpoints.some((endpoint) => wants(endpoint, type)),
    async addEndpoint(e, emit) {
      const endpoint: StoredEndpoint = { id: endpoints.length + 1, url: e.url, secret: e.secret, events: [...e.events], format: e.format, enabled: true, createdAt: e.createdAt };
      endpoints.push(endpoint);
      return report(publicEndpoint(endpoint), emit);
    },
    listEndpoints: async () => endpoints.map(publicEndpoint),
    async updateEndpoint(id, change, emit) {
      const endpoint = endpoints[id - 1];
      if (!endpoint) return null;
      if (change.url !== undefined) endpoint.url = change.url;
      if (change.events !== undefined) endpoint.events = [...change.events];
      if (change.enabled !== undefined) endpoint.enabled = change.enabled;
      return report(publicEndpoint(endpoint), emit);
    },
    async enqueue(event, at) {
      const targets = endpoints.filter((endpoint) => wants(endpoint, event.type));
      if (targets.length === 0) return;
      const eventId = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
      const body = eventBody(event, at);
      for (const endpoint of targets) {
        const id = nextDelivery++;
        deliveries.set(id, {
          id,
          eventId,
          type: event.type,
          endpointId: endpoint.id,
          url: endpoint.url,
          state: 'pending',
          attempts: 0,
          createdAt: at,
          nextAttemptAt: at,
          lastAttemptAt: null,
          lastStatus: null,
          lastError: null,
          deliveredAt: null,
          body,
        });
      }
      trim();
    },
    async claimDue(now, leaseMs, limit, share) {
      const due: DueDelivery[] = [];
      const taken = new Map<number, number>(share?.inFlight ?? []);
      const ready = [...deliveries.values()]
        .filter((d) => d.state === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && endpoints[d.endpointId - 1]!.enabled)
        .sort((a, b) => a.nextAttemptAt! - b.nextAttemptAt! || a.id - b.id);
      for (const d of ready) {
        if (due.length === limit) break;
        const busy = taken.get(d.endpointId) ?? 0;
        if (share && busy >= share.perEndpoint) continue;
        taken.set(d.endpointId, busy + 1);
        d.nextAttemptAt = now + leaseMs;
        const endpoint = endpoints[d.endpointId - 1]!;
        due.push({ id: d.id, endpointId: d.endpointId, eventId: d.eventId, type: d.type, body: d.body, url: endpoint.url, secret: endpoint.secret, format: endpoint.format, attempts: d.attempts });
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
  };
  const report = reportTo(outbox, audit);
  return outbox;
}
