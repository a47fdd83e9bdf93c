/**
 * `npm run start:workers` as an operator runs it, in a child process: the Worker under workerd behind
 * the local front, started on 127.0.0.1 with PORT=0 and found through its 'listening' line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listeningLine, ROOT, type Spawned, spawnServer } from './_spawn.ts';

/** A running `npm run start:workers`. */
export interface WorkersProgram extends Spawned {
  /** The front's address, e.g. http://127.0.0.1:40123. */
  url: string;
  port: number;
  /** The fields of the 'listening' line. */
  listening: Record<string, unknown>;
}

const command = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:workers']!;

/**
 * Starts the program and waits for its 'listening' line.
 *
 * @param env Settings added to the environment (PORT=0 and HOST=127.0.0.1 unless given).
 */
export async function startWorkersProgram(env: Record<string, string>): Promise<WorkersProgram> {
  const spawned = await spawnServer(command, { PORT: '0', HOST: '127.0.0.1', ...env }, listeningLine);
  const listening = listeningLine(spawned.output())!;
  const url = String(listening['url']);
  return Object.assign(spawned, { url, port: Number(new URL(url).port), listening });
}
