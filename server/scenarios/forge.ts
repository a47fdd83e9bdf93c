/**
 * Answers re-signed after the fact, for the scenarios a careless app passes and a correct one refuses: a
 * genuine answer whose signature is made again, by the scenario key itself, over other components or
 * with other parameters (another tag, another algorithm). Each stands for a check of docs/updates.md that
 * nothing else in an answer enforces.
 *
 * @module
 */
import { createHmac, createPrivateKey, sign } from 'node:crypto';
import type { FetchHandler } from '../../adapters/fetch/index.ts';
import { SCENARIO_KEY, SCENARIO_PUBLIC_KEY } from './test-keys.ts';

/** What a re-signing changes: the covered components after @status, the parameters, the algorithm. */
export interface Resigning {
  /** The covered components (without @status, which stays first unless `dropStatus`), from the genuine ones. */
  components?: (genuine: readonly string[]) => string[];
  /** The parameters' text (`;created=...;tag="update"`), from the genuine one. */
  params?: (genuine: string) => string;
  /**
   * `hmac-sha256`: the "signature" is an HMAC keyed with the public key's bytes, as an app that lets the answer
   * choose its algorithm would check it (the algorithm confusion of RFC 9421 section 7.3.6). Ed25519 by default.
   */
  algorithm?: 'ed25519' | 'hmac-sha256';
}

const privateKey = createPrivateKey({ key: Buffer.from(SCENARIO_KEY, 'base64'), format: 'der', type: 'pkcs8' });

/**
 * A copy of a signed answer with its signature made again as `change` says, over the answer's own header
 * values (RFC 9421 section 2.5, as the server makes it). An unsigned answer is returned as it is.
 */
export function resign(response: Response, change: Resigning): Response {
  const input = /^update=\(([^)]*)\)(.*)$/.exec(response.headers.get('signature-input') ?? '');
  if (!input) return response;
  const genuine = [...input[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((name) => name !== '@status');
  const components = ['@status', ...(change.components ? change.components(genuine) : genuine)];
  const params = change.params ? change.params(input[2]!) : input[2]!;
  const inner = `(${components.map((name) => `"${name}"`).join(' ')})${params}`;
  const lines = components.map((name) => `"${name}": ${name === '@status' ? response.status : (response.headers.get(name) ?? '').trim()}`);
  const base = Buffer.from([...lines, `"@signature-params": ${inner}`].join('\n'), 'ascii');
  const signature = change.algorithm === 'hmac-sha256'
    ? createHmac('sha256', Buffer.from(SCENARIO_PUBLIC_KEY, 'base64url')).update(base).digest()
    : sign(null, base, privateKey);
  const headers = new Headers(response.headers);
  headers.set('signature-input', `update=${inner}`);
  headers.set('signature', `update=:${signature.toString('base64')}:`);
  return new Response(response.body, { status: response.status, headers });
}

/** Replaces one quoted parameter of a Signature-Input's parameters, e.g. `tag="update"` with `tag="license-standing"`. */
export function withParam(params: string, name: string, value: string): string {
  return params.replace(new RegExp(`;${name}="[^"]*"`), `;${name}="${value}"`);
}

/** A handler whose answers to GET version and GET download are rewritten after the app signed them. */
export function rewritten(handle: FetchHandler, rewrite: (response: Response, path: string) => Response | Promise<Response>): FetchHandler {
  return async (request, clientIp) => {
    const response = await handle(request, clientIp);
    const path = new URL(request.url).pathname;
    return /\/(version|download)$/.test(path) ? rewrite(response, path) : response;
  };
}
