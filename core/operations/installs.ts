/**
 * POST /api/v1/installs, an addition to the spec (issue 55): an app on the update files, which never asks
 * GET /version, says once a day which version it runs, so that the installed base and the halt rule keep
 * their figures for it, counted by install id (core/ports/install-store.ts, docs/releases.md "Two kinds of
 * installs"). 204 with no body whether or not it counted: a version that is no live release (nor the
 * baseline), a repeat of the day, or a ping over its address's share count nothing.
 *
 * @module
 */
import { dayOf } from '../budgets/budgets.ts';
import { reportParty } from '../clients/party.ts';
import type { AppContext, Operation } from '../context.ts';
import { readJsonObject } from '../http/body.ts';
import { ApiError } from '../http/errors.ts';
import { parseOrThrow } from '../http/validate.ts';
import { installHashOf, INSTALLS_PER_CLIENT } from '../releases/install-figures.ts';
import { InstallPingRequestSchema } from '../schemas/requests.ts';

/** Whether a version is counted: a live (not pulled) stored release, or the baseline when no release of it is stored. */
async function counted(context: AppContext, version: string): Promise<boolean> {
  const stored = context.releases.known().find((release) => release.version === version);
  if (stored !== undefined) return stored.pulledAt === null;
  return (await context.releases.baseline()).version === version;
}

/** Counts the ping of an install (once per install id, version and UTC day); 204 either way. */
export function installs(context: AppContext): Operation {
  return async (request) => {
    const body = readJsonObject(request, context.bodyLimit, true);
    const ping = parseOrThrow(InstallPingRequestSchema, body);
    if (context.updateFiles.channel(ping.channel) === null) {
      throw new ApiError(
        'not_found',
        `No update channel is named ${JSON.stringify(ping.channel)}.`,
        'Name the channel whose files the app reads (/updates/<channel>/), such as stable.',
      );
    }
    if (await counted(context, ping.version)) {
      // Install ids are free to mint: the share of one address (a party's client, as bug reports count it) is capped.
      await context.storage.installs.addInstall({
        day: dayOf(context.clock.now()),
        channel: ping.channel,
        release: ping.version,
        installHash: installHashOf(context.voterId, ping.installId),
        clientHash: context.voterId(reportParty(request.clientIp).client),
      }, INSTALLS_PER_CLIENT);
    }
    return { status: 204, headers: {}, body: null };
  };
}
