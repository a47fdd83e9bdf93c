/**
 * The operator pages' sessions, kept in the process's memory: a restart (or another instance) signs the
 * operator out. A session expires after SESSION_IDLE_MS without a request, by the injected clock.
 *
 * @module
 */
import { randomSecret } from '../../core/clients/keyed-hash.ts';
import type { Clock } from '../../core/ports/ports.ts';
import { sameSecret } from '../../core/operator/token-gate.ts';

/** How long a session lasts without a request: 12 hours. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** The most sessions kept; the least recently used goes first beyond it. */
const MAX_SESSIONS = 1000;

/** A message shown once on the next page: what an action did, or why it did nothing. */
export interface Flash {
  kind: 'done' | 'error';
  message: string;
  resolution?: string;
}

export interface Session {
  readonly id: string;
  /** The token every form of this session carries in its `csrf` field. */
  readonly csrf: string;
  /** Whose token signed it in (core/operator/named-tokens.ts): the actor of its changes in the audit trail. */
  readonly actor: string;
  lastSeen: number;
  flash: Flash | null;
}

export interface SessionStore {
  /** A new session of the operator `actor`. */
  create(actor: string): Session;
  /** The live session of this id (its idle time starts again), or null. */
  find(id: string | undefined): Session | null;
  end(id: string): void;
}

/** Whether a form's `csrf` field is its session's token (constant time). */
export function csrfMatches(session: Session, given: string | undefined): boolean {
  return given !== undefined && sameSecret(given, session.csrf);
}

/** Creates an empty store. */
export function createSessionStore(clock: Clock): SessionStore {
  // A Map keeps insertion order: a session seen again moves to the end, so the first is the least recent.
  const sessions = new Map<string, Session>();
  const expired = (session: Session, now: number) => now - session.lastSeen >= SESSION_IDLE_MS;

  return {
    create(actor) {
      const now = clock.now();
      for (const [id, session] of sessions) if (expired(session, now)) sessions.delete(id);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      const session: Session = { id: randomSecret(), csrf: randomSecret(), actor, lastSeen: now, flash: null };
      sessions.set(session.id, session);
      return session;
    },
    find(id) {
      if (id === undefined) return null;
      const session = sessions.get(id);
      if (!session) return null;
      const now = clock.now();
      sessions.delete(id);
      if (expired(session, now)) return null;
      session.lastSeen = now;
      sessions.set(id, session);
      return session;
    },
    end(id) {
      sessions.delete(id);
    },
  };
}
