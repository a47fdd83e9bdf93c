/**
 * The outbox in memory: endpoints, events and deliveries as the SQL outbox keeps them (lost on restart,
 * like everything in memory storage). At most `maxDeliveries` are kept: the oldest finished ones go first.
 *
 * @module
 */
import { deleteKey, type MemoryFace, patch, setKey, type Undo } from './undo.ts';
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
export interface MemoryOutbox extends OutboxStore {
  /** Whether an enabled endpoint subscribes to `type`: a change with no listener need not draft its event. */
  wants(type: string): boolean;
}

/** Creates an empty outbox; a change's face of it undoes its own writes when the change throws. */
export function createMemoryOutbox(maxDeliveries = MAX_DELIVERIES): MemoryFace<MemoryOutbox> {
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
  const trim = (undo: Undo | undefined) => {
    for (const [id, delivery] of deliveries) {
      if (deliveries.size <= maxDeliveries) return;
      if (delivery.state !== 'pending') deleteKey(deliveries, id, undo);
    }
  };

  /** Writes one event's deliveries to `targets` (none when there is none); their ids. */
  function write(type: DeliveredType, body: string, at: number, targets: readonly StoredEndpoint[], undo: Undo | undefined): number[] {
    const eventId = `msg_${crypto.randomUUID().replaceAll('-', '')}`;
    const ids = targets.map((endpoint) => {
      const id = nextDelivery++;
      setKey(deliveries, id, {
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
      }, undo);
      return id;
    });
    trim(undo);
    return ids;
  }

  // Ids are not given back by a change that throws (as a SQL sequence's are not).
  return (undo) => ({
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
      setKey(endpoints, id, endpoint, undo);
      return publicEndpoint(endpoint);
    },
    listEndpoints: async () => [...endpoints.values()].map(publicEndpoint),
    async updateEndpoint(id, change) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      if (change.url !== undefined) patch(endpoint, { url: change.url }, undo);
      if (change.events !== undefined) patch(endpoint, { events: [...change.events] }, undo);
      if (change.enabled !== undefined) patch(endpoint, { enabled: change.enabled }, undo);
      return publicEndpoint(endpoint);
    },
    async enqueue(event, at) {
      write(event.type, eventBody(event, at), at, [...endpoints.values()].filter((endpoint) => wants(endpoint, event.type)), undo);
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
        patch(d, { nextAttemptAt: now + leaseMs }, undo);
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
      patch(d, {
        attempts: d.attempts + 1,
        lastAttemptAt: o.at,
        lastStatus: o.status,
        lastError: o.error,
        state: o.delivered ? 'delivered' : o.nextAttemptAt === null ? 'failed' : 'pending',
        deliveredAt: o.delivered ? o.at : null,
        nextAttemptAt: o.nextAttemptAt,
      }, undo);
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
      patch(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null }, undo);
      return view(d);
    },
    async replayFailed(at, limit, endpointId) {
      const failed = [...deliveries.values()].filter((d) => d.state === 'failed' && (endpointId === null || d.endpointId === endpointId));
      const chosen = failed.sort((a, b) => a.id - b.id).slice(0, limit);
      for (const d of chosen) patch(d, { state: 'pending', attempts: 0, nextAttemptAt: at, deliveredAt: null }, undo);
      return { replayed: chosen.length, remaining: failed.length - chosen.length };
    },
    async sendTest(endpointId, data, at) {
      const endpoint = endpoints.get(endpointId);
      if (!endpoint) return null;
      const [id] = write(TEST_EVENT_TYPE, eventBody({ type: TEST_EVENT_TYPE, data }, at), at, [endpoint], undo);
      return view(deliveries.get(id!)!);
    },
    async deleteEndpoint(id) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      let dropped = 0;
      for (const [key, d] of deliveries) if (d.endpointId === id && deleteKey(deliveries, key, undo)) dropped++;
      deleteKey(endpoints, id, undo);
      return { endpoint: publicEndpoint(endpoint), dropped };
    },
    async rotateSecret(id, secret, previousUntil) {
      const endpoint = endpoints.get(id);
      if (!endpoint) return null;
      patch(endpoint, { previousSecret: previousUntil === null ? null : endpoint.secret, previousUntil, secret }, undo);
      return publicEndpoint(endpoint);
    },
  });
}
