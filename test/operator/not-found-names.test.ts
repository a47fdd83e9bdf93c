/**
 * The operator /openapi.json names the resource of each path in its 404: a replay of a webhook delivery
 * says "webhook delivery", not a bare "delivery".
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_OPERATIONS } from '../../core/operator/endpoints.ts';
import { buildOperatorOpenApi } from '../../core/operator/openapi.ts';

type Responses = Record<string, { description: string }>;

/** The resource a path's parameter names, by the path's first segments; the longest prefix wins. */
const RESOURCES: readonly (readonly [string, string])[] = [
  ['/webhooks/deliveries/', 'webhook delivery'],
  ['/webhooks/', 'webhook endpoint'],
  ['/releases/', 'release'],
  // A publish's only 404 is its body's channel.
  ['/releases', 'release channel'],
  ['/roadmap/', 'roadmap feature'],
  // The bulk link's only 404 is its body's featureId: the path names the feature the entries go to.
  ['/feedback/feature', 'roadmap feature'],
  ['/feedback/', 'feedback'],
  ['/orders/', 'checkout session'],
  ['/licenses/', 'license key'],
  ['/mails/', 'mail'],
  ['/update-roots/', 'release channel'],
  ['/update-files/', 'release channel'],
];

test("each operator 404 says which resource has no such id, in the path's own words", () => {
  const doc = buildOperatorOpenApi(OPERATOR_OPERATIONS) as { paths: Record<string, Record<string, { responses: Responses }>> };
  const seen: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const notFound = operation.responses['404'];
      if (!notFound) continue;
      const resource = RESOURCES.find(([prefix]) => path.startsWith(prefix))?.[1];
      assert.ok(resource, `${method.toUpperCase()} ${path} answers 404 but no resource is listed for it here`);
      assert.match(notFound.description, new RegExp(`: No (stored )?${resource}\\b`), `${method.toUpperCase()} ${path}: ${notFound.description}`);
      seen.push(resource);
    }
  }
  assert.equal([...new Set(seen)].sort(), [...new Set(RESOURCES.map(([, resource]) => resource))].sort());
  const replay = doc.paths['/webhooks/deliveries/{id}/replay']!['post']!.responses['404']!;
  assert.is(replay.description, 'delivery_not_found: No webhook delivery has this id.');
});

test.run();
