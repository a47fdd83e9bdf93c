/**
 * The conformance kit (converter-site-api/conformance) as part of the contract suite: one test per check
 * of the kit, on every target, so the spec's statements are checked once, by the kit, and the specs/
 * modules keep only what this implementation chose beyond the spec. The strict checks run too: this
 * implementation meets the rules the spec only implies.
 *
 * The kit's synthetic client addresses (198.18.0.0/15) become loopback source addresses (127.18.0.0/15),
 * so a target needs no trusted proxy: each check is a distinct client, as the other tests' `from` is.
 */
import { type ConformanceReport, type FetchLike, runConformance, selectChecks, simulatorPayment } from '../../client/conformance/index.ts';
import type { HttpInit, HttpResult } from '../_client.ts';
import type { RunningTarget } from '../_targets.ts';

/** The header the harness reads the kit's client address from (never sent to the target). */
export const KIT_CLIENT = 'x-conformance-client';
/** Checks allowed to skip on every target: no target announces a deprecation of the aliases. */
const MAY_SKIP = new Set(['alias-deprecation']);

/** 198.18.x.y -> 127.18.x.y and 198.19.x.y -> 127.19.x.y. */
function loopbackOf(address: string | null): string | undefined {
  return address?.replace(/^198\.(1[89])\./, '127.$1.');
}

/** A fetch over the target's own request function, from the loopback address of the kit's client. */
export function kitFetch(server: RunningTarget): FetchLike {
  return loopbackFetch((init) => server.request(init));
}

/**
 * The kit's options for a target reached by `send`: every check from its own loopback address, the
 * simulator's payment.
 */
export function kitOptions(send: (init: HttpInit) => Promise<HttpResult>, baseUrl: string) {
  return { fetch: loopbackFetch(send), baseUrl, clientAddressHeader: KIT_CLIENT, payCheckout: simulatorPayment, strict: true };
}

/** The failures of a report, and its skips other than the allowed ones, one line each. */
export function nonConformance(report: ConformanceReport): string[] {
  return report.checks.filter((c) => c.status === 'fail' || (c.status === 'skip' && !MAY_SKIP.has(c.id))).map((c) =>
    `${c.id} [${c.clause}] ${c.status}: ${c.message}`
  );
}

/** A fetch over `send` (an HttpInit client), from the loopback address of the kit's client. */
export function loopbackFetch(send: (init: HttpInit) => Promise<HttpResult>): FetchLike {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => void (headers[name] = value));
    const from = loopbackOf(request.headers.get(KIT_CLIENT));
    delete headers[KIT_CLIENT];
    const body = request.body === null ? undefined : await request.text();
    const result = await send({
      method: request.method,
      path: url.pathname + url.search,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(from ? { from } : {}),
    });
    const empty = result.status === 204 || result.status === 304 || request.method === 'HEAD';
    return new Response(empty ? null : result.text, { status: result.status, headers: result.headers });
  };
}

/**
 * Registers one test per check of the kit; the first runs the kit once against the target.
 *
 * @param register Registers a named test that gets the running target.
 */
export function registerKitChecks(register: (name: string, run: (server: RunningTarget) => Promise<void>) => void): void {
  let report: Promise<ConformanceReport> | null = null;
  for (const check of selectChecks(undefined)) {
    register(`conformance kit: ${check.id} [${check.clause}]`, async (server) => {
      report ??= runConformance({
        fetch: kitFetch(server),
        baseUrl: server.baseUrl,
        clientAddressHeader: KIT_CLIENT,
        payCheckout: simulatorPayment,
        strict: true,
      });
      const result = (await report).checks.find((c) => c.id === check.id);
      if (!result) throw new Error(`the kit did not run ${check.id}`);
      if (result.status === 'fail' || (result.status === 'skip' && !MAY_SKIP.has(check.id))) {
        throw new Error(`${check.id} [${check.clause}] ${result.status}: ${result.message}`);
      }
    });
  }
}
