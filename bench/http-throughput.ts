/**
 * Requests per second of the server program on GET /api/v1/pricing (every request passes the rate limit)
 * with memory storage and with Postgres, from 64 keep-alive clients on distinct loopback addresses.
 *
 * Usage: DATABASE_URL=postgres://... node --import tsx bench/http-throughput.ts [seconds]
 */
import { Agent, request } from 'node:http';
import { startServerProcess } from '../test/_spawn.ts';

const seconds = Number(process.argv[2] ?? 3);
const url = process.env['DATABASE_URL'];
if (!url) throw new Error('set DATABASE_URL');

async function measure(name: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess(env);
  const end = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 64 }, async (_, i) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.9.${i + 1}` });
      while (Date.now() < end) {
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: server.port, path: '/api/v1/pricing', agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end();
        });
        done++;
      }
      agent.destroy();
    }),
  );
  await server.stop();
  console.log(`${name}: ${Math.round(done / seconds)} requests/s`);
}

const schema = `bench_http_${process.pid}`;
await measure('memory', { STORAGE: 'memory' });
await measure('postgres', { DATABASE_URL: url, DATABASE_SCHEMA: schema });
const { default: postgres } = await import('postgres');
const sql = postgres(url, { onnotice: () => {} });
await sql.unsafe(`drop schema "${schema}" cascade`);
await sql.end();
