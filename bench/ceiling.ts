/**
 * The ceiling: a bare node:http server that answers every request with the pricing body serialized once
 * and the same headers the API sends (the rate-limit fields, a request id, Cache-Control, nosniff and Vary).
 * Nothing can be faster on this machine with node:http.
 *
 * Usage: node --import tsx bench/ceiling.ts <port>
 */
import { createServer } from 'node:http';
import { exampleOffer } from './example.ts';

const body = Buffer.from(JSON.stringify(exampleOffer()));
const headers = {
  'content-type': 'application/json',
  ratelimit: '"public-api";r=119;t=60',
  'ratelimit-policy': '"public-api";q=120;w=60',
  'ratelimit-limit': '120',
  'ratelimit-remaining': '119',
  'ratelimit-reset': '60',
  // A fixed id of the length the API's random UUIDs have: the ceiling pays for the bytes, not for the id.
  'x-request-id': '00000000-0000-4000-8000-000000000000',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // The example configuration allows browser origins, so the API varies its answers by Origin.
  vary: 'Origin',
  'content-length': String(body.length),
};

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${JSON.stringify(server.address())}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
