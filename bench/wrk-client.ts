/**
 * The load the way common tools send it: wrk, with a Lua script that formats every request anew with a
 * Host header and an X-Forwarded-For drawn in turn from the same 100,000 addresses as the raw client.
 * The server then parses a fresh header block per request, as it does behind a real proxy.
 *
 * Used when `wrk` is installed (Debian: apt-get install wrk); the benchmark says so when it is not.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from './scenarios.ts';

/** Whether wrk is on the PATH. */
export const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
const hasTaskset = spawnSync('taskset', ['-c', '1', 'true']).status === 0;

/** A wrk script (LuaJIT: no bitwise operators) sending the scenario from 100,000 addresses (10.x.y.z, as clientAddress numbers them). */
function script(scenario: Scenario, clientHeader: string): string {
  const body = scenario.body ? JSON.stringify(scenario.body) : 'nil';
  const headers = scenario.body ? `["Content-Type"] = "application/json", ` : '';
  return `local n = -1
request = function()
  n = (n + 1) % 100000
  local address = "10." .. math.floor(n / 65536) .. "." .. (math.floor(n / 256) % 256) .. "." .. (n % 256)
  return wrk.format("${scenario.method}", "${scenario.path}", { ${headers}["${clientHeader}"] = address }, ${body})
end
`;
}

const scripts = new Map<string, string>();
function scriptFile(scenario: Scenario, clientHeader: string): string {
  const key = `${scenario.name}|${clientHeader}`;
  let file = scripts.get(key);
  if (!file) {
    file = join(mkdtempSync(join(tmpdir(), 'bench-wrk-')), 'requests.lua');
    writeFileSync(file, script(scenario, clientHeader));
    scripts.set(key, file);
  }
  return file;
}

/** wrk's latency figure ("1.23ms", "850.00us", "1.02s") in ms. */
function ms(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!match) return 0;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/**
 * Runs wrk (pinned to core 1) against a port for `seconds`.
 *
 * @returns Requests per second, their number, p50 and p99 in ms, and the statuses (wrk counts only
 *   non-2xx answers, so 2xx are reported under the scenario's expected status).
 */
export function runWrk(port: number, scenario: Scenario, connections: number, seconds: number, clientHeader = 'X-Forwarded-For') {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', scriptFile(scenario, clientHeader), `http://127.0.0.1:${port}${scenario.path}`];
  const [command, commandArgs] = hasTaskset ? ['taskset', ['-c', '1', 'wrk', ...args]] : ['wrk', args];
  return new Promise<{ rps: number; total: number; p50: number; p99: number; statuses: Record<string, number> }>((resolve, reject) => {
    execFile(command as string, commandArgs as string[], (error, stdout, stderr) => {
      // A script error leaves wrk sending its default request: that measures something else.
      if (error || stderr.trim()) return reject(error ?? new Error(`wrk: ${stderr.trim()}`));
      const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
      const other = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
      resolve({
        rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
        total,
        p50: ms(/\s50%\s+(\S+)/.exec(stdout)?.[1]),
        p99: ms(/\s99%\s+(\S+)/.exec(stdout)?.[1]),
        statuses: { [String(scenario.expect ?? 200)]: total - other, ...(other > 0 ? { other } : {}) },
      });
    });
  });
}
