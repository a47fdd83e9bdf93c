/**
 * The operator app: the operator endpoint table routed into the same request pipeline as the public app,
 * behind the token gate instead of the rate limit. Served on its own listener (OPERATOR_PORT), never on
 * the public port.
 *
 * @module
 */
import { createCors } from '../http/cors.ts';
import { type CoreRequest, encodeJson, JSON_TYPE } from '../http/http.ts';
import { createPipeline, type Pipeline } from '../pipeline/pipeline.ts';
import { createRouter } from '../http/router.ts';
import type { OperatorContext } from './context.ts';
import { OPERATOR_OPERATIONS } from './endpoints.ts';
import { httpHandler } from './http-binding.ts';
import { buildOperatorOpenApi } from './openapi.ts';
import type { CidrSet } from '../clients/client-ip.ts';
import type { Logger } from '../ports/ports.ts';
import type { Router } from '../http/router.ts';
import { bearerOf, createTokenChecker, createTokenGate, type TokenChecker } from './token-gate.ts';
import { type OperatorToken, operatorTokensProblem } from './named-tokens.ts';

/** What routes beside the operator API are given: the largest body, the proxies believed, the logger. */
export interface OperatorRouteSettings {
  readonly bodyLimit: number;
  /** Proxies whose X-Forwarded-Proto is believed (a session cookie is Secure over https). */
  readonly trustedProxies: CidrSet | null;
  readonly logger: Logger;
}

/**
 * Adds routes to the operator listener beside the API (the operator pages: adapters/operator-pages). They
 * are routed outside the bearer gate and unmetered: they check a session of their own, signed in through
 * `checker` (so a wrong sign-in counts as a wrong token).
 */
export type OperatorRoutes = (router: Router, context: OperatorContext, checker: TokenChecker, settings: OperatorRouteSettings) => void;

export { MIN_OPERATOR_TOKEN_CHARACTERS, MIN_OPERATOR_TOKEN_LENGTH, operatorTokenProblem } from './named-tokens.ts';

/**
 * Creates the operator app's pipeline.
 *
 * @param context The ports of the public app it operates (shared, so a change is served at once).
 * @param tokens The operators' tokens, each with the name the audit trail records (named-tokens.ts).
 * @param trustedProxies Proxies whose X-Forwarded-Proto the pages believe (their cookie is Secure over https).
 * @param addRoutes Routes beside the API (the operator pages), if any.
 * @throws Error when there is no token, or a name or token is refused (operatorTokensProblem).
 */
export function createOperatorPipeline(
  context: OperatorContext,
  tokens: readonly OperatorToken[],
  trustedProxies: CidrSet | null = null,
  addRoutes?: OperatorRoutes,
): Pipeline {
  const problem = tokens.length === 0 ? 'list is empty' : operatorTokensProblem(tokens);
  if (problem !== null) throw new Error(`the operator tokens: ${problem}`);
  const router = createRouter();
  const checker = createTokenChecker(tokens, context.clock);
  // The gate admitted the request, so its bearer token is one operator's.
  const actorOf = (request: CoreRequest) => checker.actorOf(bearerOf(request)) ?? '';
  for (const operation of OPERATOR_OPERATIONS) router.add(operation.method, operation.path, httpHandler(operation, context, actorOf));
  const document = encodeJson(buildOperatorOpenApi(OPERATOR_OPERATIONS));
  // The document says what the paths are, nothing stored: it needs no token.
  router.add('GET', '/openapi.json', () => ({ status: 200, headers: { 'content-type': JSON_TYPE }, body: document }), { metered: false });
  addRoutes?.(router, context, checker, { bodyLimit: context.bodyLimit, trustedProxies, logger: context.logger });
  return createPipeline({
    router,
    gate: createTokenGate(checker),
    cors: createCors([]),
    aliasNotices: new Map(),
    logger: context.logger,
    count: () => {},
    answered: undefined,
  });
}
