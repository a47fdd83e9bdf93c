/**
 * Requesters told when their request ships (docs/operating.md "Requesters told"): a background step of
 * the mail loop. For every linked request (core/ports/link-store.ts) with an address, whose feature (after
 * merges, core/changelog/linked-requests.ts) is visible, not switched off and names a release live for
 * everyone (core/releases/shipped.ts), and whose requester was not told and did not unsubscribe, it
 * writes one mail in one change with the mark that it was told. The mark is the primary key of the told
 * entries, so of several instances sweeping at once one mails; a pull and a restore mail nobody again, and
 * a staged release mails nobody.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../ports/ports.ts';
import { type MailDraft, type MailHtml, mailHtmlOf, type MailPart } from '../ports/mail.ts';
import type { Release } from '../ports/release-store.ts';
import type { StoredFeature } from '../ports/store-ports.ts';
import { type CommittedChanges, recordChange } from '../ports/change.ts';
import { countedFeature } from '../changelog/linked-requests.ts';
import { shippedReleases } from '../releases/shipped.ts';
import { isOneAddress } from '../schemas/email-address.ts';
import type { UnsubscribeTokens } from './unsubscribe.ts';

export interface ShippedRequestsOptions {
  storage: Storage;
  /** Opens the change that marks a request told with its mail (core/ports/change.ts). */
  changes: Pick<CommittedChanges, 'change'>;
  /** The product's name. */
  productName: string;
  /** This API's public address: the download, and the unsubscribe address. */
  publicBaseUrl: string;
  tokens: UnsubscribeTokens;
  /** Renders the HTML part (adapters/mail-html); null: text only. */
  html: MailHtml | null;
  clock: Clock;
  logger: Logger;
  /** false: the vendor turned these mails off (config `mail.requestersTold`); the step does nothing. */
  enabled: boolean;
}

/** Tells the requesters whose request shipped since; resolves with how many were told. */
export type ShippedRequestsStep = () => Promise<number>;

/** The one-click unsubscribe address of a recipient (POST, RFC 8058; a GET shows a page with the button). */
export const unsubscribeAddress = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/api/v1/unsubscribe?token=${token}`;

/** What one mail says: the feature, the release, and where to get it. */
interface Shipped {
  feedbackId: number;
  to: string;
  feature: StoredFeature;
  release: Release;
}

/** The mail of one request: its text, and the same words as content for the HTML part. */
export function shippedMail(options: Pick<ShippedRequestsOptions, 'productName' | 'publicBaseUrl' | 'tokens' | 'html'>, shipped: Shipped): MailDraft {
  const { feature, release } = shipped;
  const product = options.productName;
  const download = `${options.publicBaseUrl}/api/v1/download?source=shipped-mail`;
  const unsubscribe = unsubscribeAddress(options.publicBaseUrl, options.tokens.tokenFor(shipped.to));
  const lines = [
    'Hello,',
    '',
    `You asked for "${feature.title}" in ${product}. It is in version ${release.version}, out for everyone now.`,
    ...(feature.description ? ['', feature.description] : []),
    '',
    `Download: ${download}`,
    ...(release.notesUrl ? [`Release notes: ${release.notesUrl}`] : []),
    '',
    `You get this message once, because you left this address with your request (#${shipped.feedbackId}).`,
    `To get no more messages like this one: ${unsubscribe}`,
  ];
  const link = (href: string, text: string): MailPart => ({ link: { href, text } });
  const subject = `${feature.title}: in ${product} ${release.version}`.replaceAll(/[\r\n]+/g, ' ');
  const paragraph = (...parts: MailPart[]) => ({ kind: 'paragraph' as const, lines: [parts] });
  const blocks = [
    paragraph('Hello,'),
    paragraph('You asked for ', { strong: feature.title }, ` in ${product}. It is in version ${release.version}, out for everyone now.`),
    ...(feature.description ? [paragraph(feature.description)] : []),
    paragraph(link(download, `Download ${product} ${release.version}`), ...(release.notesUrl ? [' · ', link(release.notesUrl, 'Release notes')] : [])),
    {
      ...paragraph(
        `You get this message once, because you left this address with your request (#${shipped.feedbackId}). `,
        link(unsubscribe, 'No more messages like this one'),
        '.',
      ),
      aside: true,
    },
  ];
  const html = mailHtmlOf(options.html, { subject, blocks });
  return { cause: `shipped:${shipped.feedbackId}`, kind: 'shipped', session: null, to: shipped.to, subject, text: `${lines.join('\n')}\n`, html };
}

export function createShippedRequestsStep(options: ShippedRequestsOptions): ShippedRequestsStep {
  const { storage, clock, logger } = options;

  /** The requests to tell now, each with its feature and release. */
  const due = async (now: number): Promise<Shipped[]> => {
    const [releases, features, linked, told, unsubscribed, off] = await Promise.all([
      storage.releases.listReleases(),
      storage.features.list(),
      storage.links.linked(),
      storage.shipping.told(),
      storage.shipping.unsubscribed(),
      storage.shipping.mailsOff(),
    ]);
    const shipped = new Map((await shippedReleases(releases, storage.shipping, now)).map(({ release }) => [release.version, release]));
    if (shipped.size === 0) return [];
    const byId = new Map(features.map((feature) => [feature.id, feature]));
    const [toldSet, stopped, offSet] = [new Set(told), new Set(unsubscribed), new Set(off)];
    const found: Shipped[] = [];
    for (const link of linked) {
      if (link.email === null || !isOneAddress(link.email) || toldSet.has(link.feedbackId) || stopped.has(link.email.toLowerCase())) continue;
      const featureId = countedFeature(link.featureId, byId);
      const feature = featureId === null ? undefined : byId.get(featureId);
      if (!feature || !feature.visible || offSet.has(feature.id) || feature.release_version === null) continue;
      const release = shipped.get(feature.release_version);
      if (release) found.push({ feedbackId: link.feedbackId, to: link.email, feature, release });
    }
    return found;
  };

  return async () => {
    if (!options.enabled) return 0;
    const now = clock.now();
    let told = 0;
    for (const request of await due(now)) {
      const draft = shippedMail(options, request);
      // The mark and the mail commit together; an instance that lost the race writes neither.
      const marked = await options.changes.change(async (tx) => {
        if (!(await tx.shipping.markTold(request.feedbackId, request.to, now))) return false;
        await recordChange(tx, { at: now, mail: draft });
        return true;
      });
      if (!marked) continue;
      told++;
      logger.info('requester told: the request shipped', { feedback: request.feedbackId, feature: request.feature.id, version: request.release.version });
    }
    return told;
  };
}
