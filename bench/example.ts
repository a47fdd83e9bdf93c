/** The example offer and config the benchmark serves. */
import { readFileSync } from 'node:fs';
import { EXAMPLE_CONFIG } from '../server/config.ts';

export function exampleOffer(): unknown {
  return (JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as { offer: unknown }).offer;
}
