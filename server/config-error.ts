/**
 * The error of a bad configuration: its message names the setting, and the server stops.
 *
 * @module
 */

/** A configuration problem, with the message to print; the server stops with exit code 78. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
