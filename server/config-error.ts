/**
 * The error of a bad configuration.
 *
 * @module
 */

/** A configuration problem, with the message to print; the server stops with exit code 78. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
