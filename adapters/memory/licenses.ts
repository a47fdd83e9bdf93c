/**
 * The license keys of memory storage's checkout sessions: saved once (first write wins) and read, by
 * the storage and by a change (fulfilment saves them with order.paid and the keys mail).
 *
 * @module
 */
import { type CheckoutStore, type KeyWindows, type LicenseKeys, LIFETIME_KEYS } from '../../core/ports/ports.ts';
import { type MemoryFace, setKey } from './undo.ts';

/** Creates the keys' store over the stored keys and their update windows by session id. */
export function createMemoryLicenses(
  licenses: Map<string, LicenseKeys>,
  windows: Map<string, KeyWindows>,
): MemoryFace<Pick<CheckoutStore, 'getLicenses' | 'saveLicenses'>> {
  return (undo) => ({
    async saveLicenses(sessionId, keys, sold = LIFETIME_KEYS) {
      const stored = licenses.get(sessionId);
      if (stored) return { keys: { ...stored }, stored: false };
      setKey(licenses, sessionId, { ...keys }, undo);
      setKey(windows, sessionId, { standard: sold.standard, plus: sold.plus }, undo);
      return { keys: { ...keys }, stored: true };
    },
    async getLicenses(sessionId) {
      const stored = licenses.get(sessionId);
      return stored ? { ...stored } : null;
    },
  });
}
