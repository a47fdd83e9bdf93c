/**
 * Release channels (issue 55, docs/releases.md "Channels"): `stable`, `beta`, and those the config names,
 * in one line from the most stable. A release is on one channel, the most stable it was published or
 * promoted to, and a channel lists its own releases and those of every channel more stable than it: a
 * beta app is offered beta and stable releases, a stable one stable releases only.
 *
 * @module
 */

/** The channel `/api/v1/version`, `/download` and the changelog serve, and a publish's by default. */
export const STABLE = 'stable';

/** The channels every server has, the most stable first. */
export const BUILT_IN_CHANNELS: readonly string[] = [STABLE, 'beta'];

/** What a channel's name may be: it is a path segment of the update files (`/updates/{channel}/`). */
export const CHANNEL_NAME = /^[a-z0-9-]{1,32}$/;

/** At most this many channels: each is a repository of signed files, signed every refresh when due. */
export const MAX_CHANNELS = 8;

/**
 * The channels, the most stable first: the built-in ones, then `named` (the config's), each less stable
 * than the one before.
 *
 * @returns The channels, or a sentence saying what is wrong with `named`.
 */
export function channelLine(named: readonly string[]): string[] | string {
  const channels = [...BUILT_IN_CHANNELS];
  for (const name of named) {
    if (!CHANNEL_NAME.test(name)) return `channel ${JSON.stringify(name)} must be 1 to 32 of a-z, 0-9 and "-"`;
    if (channels.includes(name)) return `channel ${JSON.stringify(name)} is named twice (stable and beta always exist)`;
    channels.push(name);
  }
  if (channels.length > MAX_CHANNELS) return `at most ${MAX_CHANNELS} channels, stable and beta included; ${channels.length} are named`;
  return channels;
}

/** Whether `channel` lists a release on `releaseChannel`: that channel is `channel` or more stable (a channel no longer configured: nowhere). */
export function listsChannel(channels: readonly string[], channel: string, releaseChannel: string): boolean {
  const at = channels.indexOf(releaseChannel);
  return at >= 0 && at <= channels.indexOf(channel);
}

/** The releases `channel` lists, in the order given. */
export function releasesOn<R extends { channel: string }>(channels: readonly string[], channel: string, releases: readonly R[]): R[] {
  return releases.filter((release) => listsChannel(channels, channel, release.channel));
}

/** Whether `to` is more stable than `from` (a promotion moves a release that way only). */
export function isMoreStable(channels: readonly string[], to: string, from: string): boolean {
  const at = channels.indexOf(to);
  const fromAt = channels.indexOf(from);
  return at >= 0 && (fromAt < 0 || at < fromAt);
}
