/**
 * One scenario's load on a port, as bench:ab and bench:profile send it: 50 connections of wrk, or of the
 * raw client with its requests serialized once.
 */
import { requestBytes, runRaw } from './raw-client.ts';
import type { Scenario } from './scenarios.ts';
import { runWrk } from './wrk-client.ts';

/** A run of `seconds` under the scenario's load; `loader` defaults to the scenario's own (raw when none). */
export function loadOf(scenario: Scenario, port: number, loader = scenario.loader ?? 'raw'): (seconds: number) => Promise<{ rps: number; total: number }> {
  if (loader === 'wrk') return (seconds) => runWrk(port, scenario, 50, seconds);
  const requests = requestBytes(scenario, port);
  return (seconds) => runRaw(port, requests, 50, seconds);
}
