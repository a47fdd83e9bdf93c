/**
 * The license keys of memory storage's checkout sessions: saved once (first write wins) and read, by
 * the storage and by a change (fulfilment saves them with order.paid and the keys mail).
 *
 * @module
 */
import type { CheckoutStore, LicenseKeys } from '../../core/ports/ports.ts';
import { type MemoryFace, setKey } from './undo.ts';

/** Creates the keys' store over the stored keys by session id. */
export function createMemoryLicenses(licenses: Map<string, LicenseKeys>): MemoryFace<Pick<CheckoutStore, 'getLicenses' | 'saveLicenses'>> {
  return (undo) => ({
    async saveLicenses(sessionId, keys) {
      const stored = licenses.get(sessionId);
      if (stored) return { keys: { ...stored }, stored: false };
      setKey(licenses, sessionId, { ...keys }, undo);
      return { keys: { ...keys }, stored: true };
    },
    async getLicenses(sessionId) {
      const stored = licenses.get(sessionId);
      return stored ? { ...stored } : null;
    },
  });
}
