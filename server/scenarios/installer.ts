/**
 * The installers the scenario server serves itself: a few KiB that stand for an MSI (never a real one),
 * their SHA-256 and size, so that the desktop app downloads and checks them as it would a release's.
 *
 * @module
 */

/** The size of every installer: the genuine one and the other bytes served in its place are alike in size. */
export const INSTALLER_SIZE = 4096;

/** The bytes of one installer: `genuine` those its release names, else other bytes of the same size. */
export function installerBytes(version: string, genuine = true): Uint8Array {
  const line = `converter-site-api scenario installer ${version} (${genuine ? 'the release' : 'NOT the release: other bytes'}; not a real MSI)\n`;
  return new TextEncoder().encode(line.repeat(Math.ceil(INSTALLER_SIZE / line.length))).slice(0, INSTALLER_SIZE);
}

/** The file name of a version's installer. */
export const installerName = (version: string) => `LegacySheetConverter-${version}-x64.msi`;

/** The SHA-256 of bytes as an RFC 9530 field value, `sha-256=:<base64>:`. */
export async function digestField(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha-256=:${btoa(String.fromCharCode(...hash))}:`;
}
