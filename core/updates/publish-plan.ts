/**
 * Which update files to sign again (issue 54): targets when what they list changed, and every file when it
 * nears its expiry or is signed by a key the newest root no longer names for its role; a parent goes with
 * its child (a new targets needs a new snapshot naming it, and a new snapshot a new timestamp).
 *
 * Lifetimes: the timestamp expires 24 hours after it is signed and is signed again with 12 left, so a
 * client's evaluation time (max of its clock and the timestamp's signing time) is never more than 12
 * hours behind; snapshot and targets expire after 7 days, signed again with 1 left. So a database outage
 * keeps the last signed files served, and valid, for at least 12 hours.
 *
 * @module
 */

const HOUR_MS = 60 * 60 * 1000;

/** How long each file is valid after it is signed, and how long before its expiry it is signed again. */
export const LIFETIMES = {
  timestamp: { validMs: 24 * HOUR_MS, renewBeforeMs: 12 * HOUR_MS },
  snapshot: { validMs: 7 * 24 * HOUR_MS, renewBeforeMs: 24 * HOUR_MS },
  targets: { validMs: 7 * 24 * HOUR_MS, renewBeforeMs: 24 * HOUR_MS },
} as const;

/** The roles the online key signs. */
export type OnlineRole = keyof typeof LIFETIMES;

/** What is known of a role's newest stored file. */
export interface NewestFile {
  version: number;
  expiresAt: number;
  /** The keyids of its signatures. */
  signedBy: readonly string[];
}

export interface PlanInput {
  now: number;
  /** Whether the targets the releases call for differ from the newest stored targets' list. */
  targetsChanged: boolean;
  /** The keyids the newest root names for each online role. */
  rootKeyids: Readonly<Record<OnlineRole, readonly string[]>>;
  newest: Readonly<Partial<Record<OnlineRole, NewestFile | undefined>>>;
}

/** The roles to sign again, children first (targets, snapshot, timestamp); empty when all are current. */
export function publishPlan(input: PlanInput): OnlineRole[] {
  const stale = (role: OnlineRole) => {
    const file = input.newest[role];
    if (file === undefined) return true;
    if (file.expiresAt - input.now <= LIFETIMES[role].renewBeforeMs) return true;
    const trusted = input.rootKeyids[role];
    return !file.signedBy.some((keyid) => trusted.includes(keyid));
  };
  const targets = input.targetsChanged || stale('targets');
  const snapshot = targets || stale('snapshot');
  const timestamp = snapshot || stale('timestamp');
  return [...(targets ? ['targets' as const] : []), ...(snapshot ? ['snapshot' as const] : []), ...(timestamp ? ['timestamp' as const] : [])];
}
