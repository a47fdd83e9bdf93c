/**
 * The names of the update files' world (issue 54, 55), as plain patterns with no import, so that the app's
 * rule (core/tuf) and the request schemas share them without pulling in each other.
 *
 * @module
 */

/**
 * An install id (docs/updates.md "The app's rule, written once"): 16 random bytes in base64url without
 * padding, 22 characters, the last of which holds 2 bits (A, Q, g or w).
 */
export const INSTALL_ID = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/** An update channel's name (docs/updates.md "The files"): 1 to 32 of a-z, 0-9 and -. */
export const CHANNEL_NAME = /^[a-z0-9-]{1,32}$/;
