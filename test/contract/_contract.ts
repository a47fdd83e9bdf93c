/**
 * The HTTP contract suite over one target: the conformance kit's checks of the spec (./_kit.ts), and the
 * spec modules with what this implementation chose beyond the spec (error wording, session ids, the
 * example content), each registering its tests with `it`; named "<target> › <spec>: <test>". Every
 * response is validated against the target's own /openapi.json before the test sees it.
 */
import { suite } from 'uvu';
import { createResponseValidator, DOCUMENT_CLIENT } from '../_openapi.ts';
import type { RunningTarget, Target } from '../_targets.ts';
import { aliasesSpec } from './specs/aliases.ts';
import { checkoutSpec } from './specs/checkout.ts';
import { registerKitChecks } from './_kit.ts';
import { clientSpec } from './specs/client.ts';
import { discoverySpec } from './specs/discovery.ts';
import { downloadSpec } from './specs/download.ts';
import { errorsSpec } from './specs/errors.ts';
import { feedbackSpec } from './specs/feedback.ts';
import { installsSpec } from './specs/installs.ts';
import { licensesSpec } from './specs/licenses.ts';
import { pricingSpec } from './specs/pricing.ts';
import { rateLimitSpec } from './specs/rate-limit.ts';
import { roadmapSpec } from './specs/roadmap.ts';
import { versionSpec } from './specs/version.ts';

/** Registers one test; `smoke` tests also run on smoke-only targets (the Worker). */
export type It = (name: string, run: (server: RunningTarget) => Promise<void>, options?: { smoke?: boolean }) => void;

/** A spec module: the tests of one part of the contract. */
export type Spec = (it: It) => void;

/** Every spec, by name. */
export const SPECS: Record<string, Spec> = {
  pricing: pricingSpec,
  download: downloadSpec,
  version: versionSpec,
  installs: installsSpec,
  feedback: feedbackSpec,
  roadmap: roadmapSpec,
  checkout: checkoutSpec,
  licenses: licensesSpec,
  discovery: discoverySpec,
  errors: errorsSpec,
  aliases: aliasesSpec,
  'rate limit': rateLimitSpec,
  client: clientSpec,
};

/**
 * Runs the contract against one target: starts it once, runs the specs, stops it (a server that does not
 * stop cleanly on SIGTERM fails the last test).
 *
 * @param target The target.
 * @param cleanUp Runs after the target stopped (closes what the target's start opened, e.g. the test database).
 */
export function runContract(target: Target, cleanUp: () => Promise<void> = async () => undefined): void {
  const label = target.scope === 'smoke' ? `${target.name} (smoke subset: tests marked smoke)` : target.name;
  const contract = suite<{ server: RunningTarget | null }>(label, { server: null });
  contract.before(async (context) => {
    const server = await target.start();
    context.server = server;
    const document = await server.request({ path: '/openapi.json', from: DOCUMENT_CLIENT });
    if (document.status !== 200) throw new Error(`${target.name}: GET /openapi.json answered ${document.status}`);
    const validator = createResponseValidator(document.json());
    context.server = {
      ...server,
      async request(init) {
        const result = await server.request(init);
        validator.validate(init.method ?? 'GET', init.path, result);
        return result;
      },
    };
  });
  contract.after(async (context) => {
    try {
      await context.server?.stop();
    } finally {
      await cleanUp();
    }
  });
  for (const [specName, spec] of Object.entries(SPECS)) {
    spec((name, run, options = {}) => {
      if (target.scope === 'smoke' && !options.smoke) return;
      contract(`${target.name} › ${specName}: ${name}`, async (context) => {
        if (!context.server) throw new Error(`${target.name} is not running`);
        await run(context.server);
      });
    });
  }
  registerKitChecks((name, run) =>
    contract(`${target.name} › ${name}`, async (context) => {
      if (!context.server) throw new Error(`${target.name} is not running`);
      await run(context.server);
    })
  );
  contract.run();
}
