/**
 * GET /healthz and GET /readyz: the probes of load balancers and orchestrators. Outside /api and outside
 * every client's quota (routes with `metered: false`); both answer from memory.
 *
 * @module
 */
import { OPERATOR_TAG } from '../endpoint.ts';
import type { ApiRoute } from '../api-route.ts';
import type { AppContext } from '../context.ts';
import { errorResponse } from '../http/errors.ts';
import { type CoreResponse, encodeJson, JSON_TYPE } from '../http/http.ts';
import type { ReadinessState } from '../pipeline/readiness.ts';
import { ProbeSchema } from '../schemas/probe.ts';

const ok = (body: Uint8Array) => (): CoreResponse => ({ status: 200, headers: { 'content-type': JSON_TYPE }, body });

/** Answers a readiness state: 200 {"status":"ready"}, or 503 with the error of its code. */
function readinessAnswer(state: ReadinessState): CoreResponse {
  return state.ready ? ok(READY_BODY)() : errorResponse(state.code, state.message);
}

const READY_BODY = encodeJson({ status: 'ready' });

/** The probe routes. */
export const PROBE_ROUTES: readonly ApiRoute[] = [
  {
    operationId: 'getLiveness',
    method: 'GET',
    path: '/healthz',
    versioned: false,
    metered: false,
    tag: OPERATOR_TAG,
    summary: 'Liveness probe (operator-facing)',
    description: 'Answers 200 while the process serves requests; it never touches the storage, so a database outage ' +
      "does not get a healthy instance restarted. Outside every client's quota, so it carries no rate-limit " +
      'headers.',
    success: { status: 200, description: 'The process serves.', schema: ProbeSchema, schemaName: 'Probe' },
    errors: [],
    create: () => ok(encodeJson({ status: 'ok' })),
  },
  {
    operationId: 'getReadiness',
    method: 'GET',
    path: '/readyz',
    versioned: false,
    metered: false,
    tag: OPERATOR_TAG,
    summary: 'Readiness probe (operator-facing)',
    description: 'Answers 200 when the storage answered a trivial query within the last second, and 503 otherwise or ' +
      'as soon as the instance begins to shut down (before it stops listening), so that a load balancer ' +
      'drains it. Answered from memory: the storage is asked at most once a second, however many balancers ' +
      "probe. Outside every client's quota, so it carries no rate-limit headers.",
    success: { status: 200, description: 'Send traffic here.', schema: ProbeSchema, schemaName: 'Probe' },
    errors: ['shutting_down', 'storage_unavailable'],
    create: (context: AppContext) => async () => readinessAnswer(await context.readiness.check()),
  },
];
