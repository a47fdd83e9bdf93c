/**
 * The reference app of the conformance tests: the core app (createApp over memory storage and the
 * simulator, as test/_setup.ts builds it) behind the fetch binding, trusting X-Forwarded-For from
 * 127.0.0.1, so the kit can give each check its own client address.
 */
import { createFetchHandler } from '../../adapters/fetch/index.ts';
import type { FetchLike } from '../../client/conformance/index.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../_setup.ts';

/** The header the kit puts its synthetic client addresses in. */
export const CLIENT_HEADER = 'x-forwarded-for';

export interface ReferenceApp extends TestApp {
  /** The app as a `(Request) => Promise<Response>`, every request from the proxy 127.0.0.1. */
  fetch: FetchLike;
}

/** A fresh reference app. */
export async function referenceApp(options: TestAppOptions = {}): Promise<ReferenceApp> {
  const testApp = await createTestApp(options);
  const handler = createFetchHandler(testApp.app, { trustedProxies: parseCidrList('127.0.0.1/32') });
  return { ...testApp, fetch: async (request) => handler(request, '127.0.0.1') };
}
