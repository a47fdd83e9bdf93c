/**
 * The one-line text a Slack-compatible endpoint gets for an event (an incoming webhook shows `text`).
 *
 * @module
 */

interface StoredEvent {
  type: string;
  data: Record<string, unknown>;
}

const stars = (rating: unknown) => (typeof rating === 'number' ? ` ${'★'.repeat(rating)}${'☆'.repeat(5 - rating)}` : '');

/**
 * Text escaped as Slack asks of every message: `&`, `<` and `>` as entities, so that public text (a
 * feedback entry) cannot mention `<!channel>` or show a link under another name (`<https://x|y>`).
 */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A short human sentence about a stored event body, escaped for Slack. */
export function slackText(body: string): string {
  return escapeSlack(sentence(body));
}

function sentence(body: string): string {
  const { type, data } = JSON.parse(body) as StoredEvent;
  switch (type) {
    case 'feedback.received': {
      const text = String(data['description'] ?? '');
      const excerpt = text.length > 300 ? `${text.slice(0, 300)}…` : text;
      return `New ${String(data['type']).replace('_', ' ')}${stars(data['rating'])} (#${String(data['id'])}): ${excerpt}`;
    }
    case 'feedback.linked': {
      const ids = (data['feedbackIds'] as number[]).map((id) => `#${id}`).join(', ');
      return data['featureId'] === null
        ? `Feedback ${ids} unlinked from the roadmap`
        : `Feedback ${ids} linked to roadmap feature ${String(data['featureId'])}`;
    }
    case 'release.published':
      return `Release ${String(data['version'])} published to ${String(data['rolloutPercent'])}% of clients`;
    case 'release.rolled_out':
      return `Release ${String(data['version'])} rolled out to ${String(data['rolloutPercent'])}% of clients (served to ${String(data['servedPercent'])}%)`;
    case 'release.pulled':
    case 'release.restored':
      return `Release ${String(data['version'])} ${type === 'release.pulled' ? 'pulled' : 'restored'}`;
    case 'release.promoted':
      return `Release ${String(data['version'])} promoted to ${String(data['channel'])} at ${String(data['rolloutPercent'])}% of its clients`;
    case 'release.halted':
      return `Release ${String(data['version'])} halted at ${String(data['rolloutPercent'])}%: ${String(data['haltReason'])}`;
    case 'release.resumed':
      return `Release ${String(data['version'])} resumed its ramp`;
    case 'webhook.test':
      return `Test event to endpoint #${String(data['endpointId'])}: this endpoint receives the events`;
    case 'roadmap.changed':
      return `Roadmap ${String(data['action'])}: feature ${String(data['id'])}${data['title'] ? ` "${String(data['title'])}"` : ''}`;
    case 'order.paid': {
      const buyer = data['buyer'] as { email: string | null; country: string | null };
      return `Order ${String(data['session'])} paid: ${String(data['product'])}${buyer.email ? ` by ${buyer.email}` : ''}${
        buyer.country ? ` (${buyer.country})` : ''
      }`;
    }
    case 'license.revoked':
    case 'license.reinstated':
      return `Licenses of ${String(data['session'])} ${type === 'license.revoked' ? 'revoked' : 'reinstated'} (${String(data['why'])})`;
    default:
      return `${type}: ${JSON.stringify(data)}`;
  }
}
