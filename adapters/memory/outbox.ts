/**
 * The outbox in memory: endpoints, events and deliveries as the SQL outbox keeps them (lost on restart,
 * like everything in memory storage). At most `maxDeliveries` are kept: the oldest finished ones go first.
 *
 * @module
 */
import { keep, type Restorable } from './change.ts';
import {
  type DeliveredType,
  type Delivery,
  type DueDelivery,
  eventBody,
  type OutboxStore,
  TEST_EVENT_TYPE,
  type WebhookEndpoint,
} from '../../core/ports/events.ts';

interface StoredEndpoint extends WebhookEndpoint {
  secret: string;
  previousSecret: string | null;
  previousUntil: number | null;
}

interface StoredDelivery extends Delivery {
  body: string;
}

const MAX_DELIVERIES = 10_000;

/** The memory outbox, which also says whether an event of a type would be delivered anywhere. */
export interface MemoryOutbox extends OutboxStore, Restorable {
  /** Whether an enabled endpoint subscribes to `type`: a change with no listener need not draft its event. */
  wants(type: string): boolean;
}

/** Creates an empty outbox. */
export function createMemoryOutbox(maxDeliveries = MAX_DELIVERIES): MemoryOutbox {
  const endpoints = new Map<number, StoredEndpoint>();
  const deliveries = new Map<number, StoredDelivery>();
  let nextDelivery = 1;
  let nextEndpoint = 1;

  const publicEndpoint = ({ secret: _secret, previousSecret: _previous, previousUntil: _until, ...endpoint }: StoredEndpoint): WebhookEndpoint => ({
    ...endpoint,
    events: [...endpoint.events],
  });
  const view = ({ body: _body, ...delivery }: StoredDelivery): Delivery => ({ ...delivery, url: endpoints.get(delivery.endpointId)!.url });
  const wants = (endpoint: StoredEndpoint, type: string) => endpoint.enabled && (endpoint.events.length === 0 || (endpoint.events as string[]).includes(type));
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
    async addEndpoint(e) {
      const id = nextEndpoint++;
      const endpoint: StoredEndpoint = {
        id,
        url: e.url,
        secret: e.secret,
        previousSecret: null,
        previousUntil: null,
        events: [...e.events],
        format: e.format,
        enabled: true,
        createdAt: e.createdAt,
      };
      endpoints.set(id, endpoint);
      return publicEndpoint(endpoint);
    },
    listEndpoints: async () => [...endpoints.values()].map(publicEndpoint),
    async updateEndpoint(id, change) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      if (change.url !== undefined) endpoint.url = change.url;
      if (change.events !== undefined) endpoint.events = [...change.events];
      if (change.enabled !== undefined) endpoint.enabled = change.enabled;
      return publicEndpoint(endpoint);
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
        due.push({
          id: d.id,
          endpointId: d.endpointId,
          eventId: d.eventId,
          type: d.type,
          body: d.body,
          url: endpoint.url,
          secret: endpoint.secret,
          previousSecret,
          format: endpoint.format,
          attempts: d.attempts,
        });
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
    async replay(id, at) {
      const d = deliveries.get(id);
      if (!d) return null;
      Object.assign(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null });
      return view(d);
    },
    async replayFailed(at, limit, endpointId) {
      const failed = [...deliveries.values()].filter((d) => d.state === 'failed' && (endpointId === null || d.endpointId === endpointId));
      const chosen = failed.sort((a, b) => a.id - b.id).slice(0, limit);
      for (const d of chosen) Object.assign(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null });
      return { replayed: chosen.length, remaining: failed.length - chosen.length };
    },
    async sendTest(endpointId, data, at) {
      const endpoint = endpoints.get(endpointId);
      if (!endpoint) return null;
      const [id] = write(TEST_EVENT_TYPE, eventBody({ type: TEST_EVENT_TYPE, data }, at), at, [endpoint]);
      return view(deliveries.get(id!)!);
    },
    async deleteEndpoint(id) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      let dropped = 0;
      for (const [key, d] of deliveries) if (d.endpointId === id && deliveries.delete(key)) dropped++;
      endpoints.delete(id);
      return { endpoint: publicEndpoint(endpoint), dropped };
    },
    async rotateSecret(id, secret, previousUntil) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      Object.assign(endpoint, { previousSecret: previousUntil === null ? null : endpoint.secret, previousUntil, secret });
      return publicEndpoint(endpoint);
    },
  };
  /** Writes one event's deliveries to `targets` (none when there is none); their ids. */
  const write = (type: DeliveredType, body: string, at: number, targets: readonly StoredEndpoint[]): number[] => {
    const eventId = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    const ids = targets.map((endpoint) => {
      const id = nextDelivery++;
      deliveries.set(id, {
        id,
        eventId,
        type,
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
      return id;
    });
    trim();
    return ids;
  };
  return outbox;
}
