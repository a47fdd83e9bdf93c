/**
 * The shape of one check, and what a check is given to drive the target.
 */
import type { Answer } from './answer.ts';
import type { Send } from './transport.ts';
import type { CheckoutToPay } from './types.ts';

/** One client of the target, as the target sees it (one address). */
export interface Client {
  /** The synthetic address, or null for the kit's own. */
  address: string | null;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** POSTs `json` as application/json; no body at all when `json` is undefined. */
  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<Answer>;
  send(request: Send): Promise<Answer>;
}

/** A client that used up its quota: the answers up to and including the first 429 (if one came). */
export interface Exhausted {
  client: Client;
  answers: Answer[];
  limited: Answer | null;
}

/** What a running check is given. */
export interface Tester {
  /** A client for this check: a fresh address with `clientAddressHeader`, else the kit's own. */
  client(): Client;
  /** Whether `client()` gives distinct clients. */
  distinctClients: boolean;
  /** One client run into the limit; done once per run and shared by the checks that read it. */
  exhausted(): Promise<Exhausted>;
  /** Pays a session through the payment hook. */
  pay(checkout: CheckoutToPay, client: Client): Promise<void>;
}

/** What a check needs beyond the target. */
export type Need = 'clients' | 'payment';

/** One check of the kit. */
export interface Check {
  /** Stable id. */
  id: string;
  /** The spec statement it checks (see CLAUSES). */
  clause: string;
  /** Further statements it also covers. */
  also?: readonly string[];
  title: string;
  /** About how many requests it sends (for the announced duration). */
  requests: number;
  /**
   * How many checkout sessions it may open on the target (for the announcement: a target may cap the
   * unpaid sessions one address holds, and sessions the run leaves unpaid count against the next run).
   */
  sessions?: number;
  needs?: readonly Need[];
  /**
   * Set on a check whose rule the spec does not state (it only implies it, or leaves room for another
   * answer): why. Such a check runs only with the `strict` option, and is skipped, saying so, without it.
   */
  strict?: string;
  /** Resolves when the check passes; throws CheckFailure or CheckSkip otherwise. */
  run(t: Tester): Promise<void>;
}

/** The versioned prefix and the alias prefix. */
export const V1 = '/api/v1';
export const ALIAS = '/api';

/** A client the spec would call Windows (its User-Agent and client hint say so) and one it would not. */
export const WINDOWS = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'sec-ch-ua-platform': '"Windows"',
} as const;
export const MACOS = {
  'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  'sec-ch-ua-platform': '"macOS"',
} as const;
