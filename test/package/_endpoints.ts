/**
 * One request to every endpoint of the spec, in an order that makes each answer meaningful (a vote
 * toggled twice, the status of the session just created), and what a client sees of each: status, the
 * headers a client acts on, and the body with the server's own address and the session id made neutral,
 * so two servers started the same way give equal lists.
 */
import { sendRequest } from '../_client.ts';

/** What a client saw of one answer. */
export interface Seen {
  request: string;
  status: number;
  contentType: string | undefined;
  location: string | undefined;
  rateLimit: string | undefined;
  body: string;
}

const json = { 'content-type': 'application/json' };

/**
 * Sends the requests and returns what was seen.
 *
 * @param baseUrl The server, e.g. http://127.0.0.1:8080.
 * @param publicBaseUrl The address the server puts in links, replaced by <base> in bodies.
 */
export async function walkEndpoints(baseUrl: string, publicBaseUrl: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  let sessionId = '';
  const send = async (method: string, path: string, body?: string) => {
    const answer = await sendRequest(baseUrl, { method, path, ...(body === undefined ? {} : { body, headers: json }) });
    if (path === '/api/v1/checkout/create') sessionId = (answer.json() as { sessionId: string }).sessionId;
    const neutral = (text: string) => text.split(publicBaseUrl).join('<base>').split(sessionId || '\u0000').join('<session>');
    seen.push({
      request: `${method} ${neutral(path)}`,
      status: answer.status,
      contentType: answer.headers['content-type'],
      location: answer.headers['location'] && neutral(answer.headers['location']),
      // Remaining requests only: the seconds to the reset follow the wall clock, which a loaded machine moves.
      rateLimit: answer.headers['ratelimit']?.replace(/;t=\d+$/, ''),
      body: neutral(answer.text),
    });
  };
  await send('GET', '/api/v1/pricing');
  await send('GET', '/api/v1/download?source=pack-test');
  await send('GET', '/api/v1/version');
  await send('POST', '/api/v1/feedback', '{"description":"Converts my .wk1 files","type":"review","rating":5}');
  await send('GET', '/api/v1/roadmap');
  await send('POST', '/api/v1/roadmap', '{"featureId":1}');
  await send('POST', '/api/v1/roadmap', '{"featureId":1}');
  await send('POST', '/api/v1/checkout/create', '{"product":"standard","channel":"msi"}');
  await send('GET', `/api/v1/checkout/status?session_id=${sessionId}`);
  await send('GET', '/llms.txt');
  await send('GET', '/openapi.json');
  return seen;
}
