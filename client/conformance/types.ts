/**
 * The conformance kit's public types: the options naming a target, the report, and one check's result.
 *
 * @module
 */

/** How the kit reaches a target in process: a web Request in, a web Response out. */
export type FetchLike = (request: Request) => Promise<Response>;

/** A checkout session the kit created, handed to the payment hook. */
export interface CheckoutToPay {
  sessionId: string;
  /** The hosted checkout address the target answered. */
  url: string;
}

/**
 * A hook that pays a checkout session the way a buyer would, so that the kit can read its paid status.
 * `send` reaches the target as the kit does (same base URL, same transport); the hook may use it or not.
 */
export type PayCheckout = (checkout: CheckoutToPay, send: FetchLike) => Promise<void>;

/** Options of `runConformance`: the target, and how to drive it. */
export interface ConformanceOptions {
  /** The target's base URL, e.g. http://127.0.0.1:8080 (without /api/v1). */
  baseUrl?: string;
  /** Or the target in process: every request goes to this function; `baseUrl` then only names the origin. */
  fetch?: FetchLike;
  /**
   * For a target that trusts a proxy header for the client address (e.g. X-Forwarded-For): the kit sends a
   * synthetic address from 198.18.0.0/15 in this header, a fresh one per check, so it runs at full speed
   * and can check per-client behaviour. Nothing ever connects to these addresses.
   */
  clientAddressHeader?: string;
  /** Pays a session; without it the checks that need a paid checkout are skipped. See `simulatorPayment`. */
  payCheckout?: PayCheckout;
  /**
   * Runs the strict checks too: those whose rule the spec does not state, only implies (docs/conformance.md
   * marks them "strict"). Off by default, so a target the spec allows passes; `--strict` on the command line.
   */
  strict?: boolean;
  /** Runs only the checks listed by id, and those covering a listed clause (or a prefix of clauses, e.g. "limits"). */
  only?: readonly string[];
  /** Progress lines (the time the run will take, waits for the quota); none by default. */
  log?: (line: string) => void;
  /**
   * Waits while the rate-limit quota refills; setTimeout by default (tests pass their clock's). A wait is
   * never longer than the spec's window and a second, whatever the target's headers say.
   */
  sleep?: (ms: number) => Promise<void>;
  /** How long one request may take, its body included, in ms: 10,000 by default (`--timeout`). */
  timeoutMs?: number;
  /** How long the whole run may take, in ms: 600,000 (10 minutes) by default (`--deadline`). */
  deadlineMs?: number;
  /** The most bytes of one body the kit reads: 1 MiB by default (`--max-body`). */
  maxBodyBytes?: number;
  /** The clock the deadline is counted on, in ms; Date.now by default. */
  now?: () => number;
}

/** The outcome of one check. */
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** One check's result. */
export interface CheckResult {
  /** Stable id of the check, e.g. "feedback-created". */
  id: string;
  /** Stable id of the spec statement it checks, e.g. "rules.4" (see docs/conformance.md). */
  clause: string;
  title: string;
  status: CheckStatus;
  /** One line: what was expected and what came (or why the check was skipped). */
  message: string;
}

/** What `runConformance` resolves to. */
export interface ConformanceReport {
  passed: number;
  failed: number;
  skipped: number;
  checks: CheckResult[];
}
