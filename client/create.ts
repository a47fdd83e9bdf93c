/**
 * createClient: one method per endpoint, named by its operationId.
 *
 * @module
 */
import type { Endpoint } from '../core/endpoint.ts';
import { PUBLIC_ENDPOINTS, type PublicEndpoint } from '../core/endpoints.ts';
import { ApiClientError } from './error.ts';
import { type CallArgs, endpointUrl, requestInit } from './request.ts';
import { readAnswer } from './response.ts';
import type { Client, ClientOptions, FetchFunction, WithMeta } from './types.ts';

const timer = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const globalFetch: FetchFunction = (input, init) => fetch(input, init);

/**
 * A client of the given endpoints only, so that a bundler leaves the others (and their schemas) out.
 *
 * @param endpoints The endpoints, e.g. `[getPricingEndpoint]`.
 * @param options The server's address and how to call it.
 * @returns One method per endpoint, `withMeta` and the link builders.
 */
export function createClientFor<const E extends readonly Endpoint[]>(endpoints: E, options: ClientOptions): Client<E[number]> {
  const send = options.fetch ?? globalFetch;
  const validate = options.validate ?? false;
  const retry = options.retry;

  const call = async (endpoint: Endpoint, args: CallArgs): Promise<WithMeta<unknown>> => {
    const url = endpointUrl(options.baseUrl, endpoint, args);
    for (let attempt = 0;; attempt++) {
      try {
        return await readAnswer(endpoint, url, await send(url, requestInit(endpoint, args)), validate);
      } catch (error) {
        const wait = error instanceof ApiClientError && error.status === 429 ? error.rateLimit?.retryAfter : undefined;
        if (!retry || wait === undefined || attempt >= retry.retries || wait > (retry.maxWaitSeconds ?? 60)) throw error;
        await (retry.sleep ?? timer)(wait * 1000);
      }
    }
  };

  const methods: Record<string, unknown> = {};
  const withMeta: Record<string, unknown> = {};
  for (const endpoint of endpoints) {
    const id = endpoint.operationId;
    withMeta[id] = (args?: CallArgs) => call(endpoint, args);
    methods[id] = async (args?: CallArgs) => (await call(endpoint, args)).data;
    if (endpoint.success.status === 302) methods[`${id}Link`] = (args?: CallArgs) => endpointUrl(options.baseUrl, endpoint, args);
  }
  methods['withMeta'] = withMeta;
  return methods as Client<E[number]>;
}

/**
 * A client of every public operation of the API.
 *
 * @param options The server's address (`baseUrl`), and optionally a fetch, response validation and 429 retries.
 * @returns One method per row of `PUBLIC_ENDPOINTS`, named by its operationId (`getPricing()`,
 *   `submitFeedback({ description })`, ...; docs/client.md lists them), `downloadInstallerLink()`, and the
 *   same methods under `withMeta` with the rate-limit state.
 */
export function createClient(options: ClientOptions): Client<PublicEndpoint> {
  return createClientFor(PUBLIC_ENDPOINTS, options);
}
