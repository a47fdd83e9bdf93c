/**
 * A channel the operator names (a release's, an update root's): one of this app's, the most stable first
 * (core/releases/channels.ts), else 404 `channel_not_found` naming them.
 *
 * @module
 */
import type { OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';

/** The channels, the most stable first, when `name` is one of them; else a 404 `channel_not_found`. */
export function knownChannel(context: Pick<OperatorContext, 'updateFiles'>, name: string): readonly string[] {
  const channels = context.updateFiles.names;
  if (!channels.includes(name)) {
    throw new OperatorError('channel_not_found', `No update channel is named ${JSON.stringify(name.slice(0, 40))}; the channels are ${channels.join(', ')}.`);
  }
  return channels;
}
