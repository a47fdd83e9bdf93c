/**
 * POST /api/v1/unsubscribe?token= (RFC 8058 one-click) and GET, its page: an addition to the spec. The
 * shipped-request mails (core/mail/shipped-requests.ts) name this address in List-Unsubscribe; a POST
 * stops every such mail to the token's address, at once and for good, whatever its body. A GET never
 * unsubscribes (link checkers fetch links): it shows a page with the button that posts.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { type CoreRequest, type CoreResponse, headerValue, HTML_TYPE, json } from '../http/http.ts';
import { parseQueryOrThrow } from '../http/validate.ts';
import { escapeHtmlText as escape } from '../formats/html-text.ts';
import { UnsubscribeTokenSchema } from '../schemas/unsubscribe.ts';

const DONE = 'This address gets no more messages about shipped requests.';

/**
 * The address of the request's token: 400 invalid_parameter when it is missing, repeated or not shaped like a
 * token; 404 token_not_found when it is shaped like one but no unsubscribe address of this server has it.
 */
function emailOf(context: AppContext, request: CoreRequest): string {
  const tokens = new URLSearchParams(request.query ?? '').getAll('token');
  if (tokens.length !== 1) throw new ApiError('invalid_parameter', 'Query parameter "token" must be given once.');
  const token = parseQueryOrThrow(UnsubscribeTokenSchema, 'token', tokens[0], 'invalid_parameter');
  const email = context.unsubscribeTokens.emailOf(token);
  if (email === null) throw new ApiError('token_not_found', 'No unsubscribe address of this server has this token.');
  return email;
}

function page(title: string, body: string): CoreResponse {
  return {
    status: 200,
    headers: { 'content-type': HTML_TYPE, 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" },
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;max-width:38rem;margin:2rem auto;padding:0 1rem}</style></head>
<body><main>
<h1>${escape(title)}</h1>
${body}
</main></body>
</html>
`,
  };
}

/** POST: unsubscribes; JSON, or a page for a browser's form (Accept: text/html). */
export function unsubscribe(context: AppContext): Operation {
  return async (request) => {
    const email = emailOf(context, request);
    await context.storage.shipping.unsubscribe(email, context.clock.now());
    if (headerValue(request.headers, 'accept')?.includes('text/html')) return page('Unsubscribed', `<p>${escape(DONE)}</p>`);
    return json(200, { unsubscribed: true, message: DONE });
  };
}

/** GET: the page with the button (a GET changes nothing). */
export function unsubscribePage(context: AppContext): Operation {
  const product = context.content.offer.productDisplayName;
  return (request) => {
    const email = emailOf(context, request);
    const action = `/api/v1/unsubscribe?${new URLSearchParams({ token: context.unsubscribeTokens.tokenFor(email) })}`;
    return page(
      `No more ${product} messages about shipped requests`,
      `<p>Stop every message telling ${escape(email)} that a request it made shipped?</p>
<form method="post" action="${escape(action)}"><button type="submit">Unsubscribe</button></form>`,
    );
  };
}
