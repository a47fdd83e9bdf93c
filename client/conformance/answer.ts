/**
 * One answer of the target as the checks read it, and the failure and skip signals they throw.
 */

/** A response, read once. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Thrown by a check that failed; the message is the report's line. `clause` names the statement broken
 * when it is not the check's own (a rate-limit header seen by a pricing check is `limits.RateLimit-Policy`).
 */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    message: string,
    readonly clause?: string,
  ) {
    super(message);
  }
}

/** Thrown by a check that cannot run against this target (no payment hook, one client address). */
export class CheckSkip extends Error {
  override name = 'CheckSkip';
}

/** Fails the running check, under `clause` when the statement broken is not the check's own. */
export function fail(message: string, clause?: string): never {
  throw new CheckFailure(message, clause);
}

/** The first 80 characters of a body, on one line, for messages. */
export function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}

/** "GET /api/v1/pricing answered 404 {…}" */
export function describe(answer: Answer): string {
  const body = answer.text === '' ? '' : ` ${snippet(answer.text)}`;
  return `${answer.method} ${answer.path} answered ${answer.status}${body}`;
}
