/**
 * Times every answer for the Observer port: the duration, the route template, once the answer is final.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from './http.ts';
import type { MaybePromise, Observer } from './ports.ts';

type Respond = (request: CoreRequest) => MaybePromise<CoreResponse>;

/**
 * Wraps a responder so that each answer is reported to the observer; the responder itself when there is
 * nobody to tell, so an app without an observer pays nothing.
 *
 * @param respond Answers one request.
 * @param answered The observer's callback, if any.
 * @param routeOf The route template of a request, or null.
 */
export function timedAnswers(respond: Respond, answered: Observer['answered'], routeOf: (request: CoreRequest) => string | null): Respond {
  if (answered === undefined) return respond;
  const report = (request: CoreRequest, response: CoreResponse, startedAt: number): CoreResponse => {
    answered(request, response, routeOf(request), (performance.now() - startedAt) / 1000);
    return response;
  };
  return (request) => {
    const startedAt = performance.now();
    const result = respond(request);
    return result instanceof Promise ? result.then((r) => report(request, r, startedAt)) : report(request, result, startedAt);
  };
}
