/**
 * Fixtures of the update files' tests (issue 54): a stored file whose `signed` part is only what the
 * serving code reads (no signature: the route serves bytes, it verifies nothing), and a stored release
 * record with every field, for the feed.
 */
import type { UpdateFile } from '../core/ports/update-files.ts';
import type { Release } from '../core/ports/release-store.ts';

/** A stored file of channel `stable`: `{signatures: [], signed: {_type, version, ...signed}}`. */
export function storedFile(role: UpdateFile['role'], version: number, signed: Record<string, unknown> = {}, storedAt = 1_000): UpdateFile {
  return {
    channel: 'stable',
    role,
    version,
    text: JSON.stringify({ signatures: [], signed: { _type: role, version, ...signed } }),
    storedAt,
    expiresAt: Date.UTC(2027, 0, 1),
  };
}

/** A release as storage keeps it: at 100 %, published 2026-01-01, with a digest and a size, then `fields`. */
export function releaseRecord(version: string, fields: Partial<Release> = {}): Release {
  return {
    version,
    msiUrl: `https://downloads.example.com/converter-${version}.msi`,
    notesUrl: null,
    channel: 'stable',
    rolloutBasisPoints: 10000,
    publishedAt: Date.UTC(2026, 0, 1),
    pulledAt: null,
    sha256: 'cd'.repeat(32),
    size: 1000,
    critical: false,
    ramp: null,
    haltedAt: null,
    haltReason: null,
    announcedStep: 0,
    ...fields,
  };
}
