/**
 * Apps on one storage each, for the release tests that must hold on every storage: memory, PGlite, and two
 * instances on one PostgreSQL (published through one, served by both), all on one injected clock, with the
 * operator token and no rate limit to speak of; `postgresInstances` gives each app options of its own too.
 */
import { createMemoryStorage } from '../adapters/memory/index.ts';
import type { SqlClient } from '../adapters/sql/client.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { createSqlStorage } from '../adapters/sql/storage.ts';
import type { App } from '../core/app.ts';
import type { Storage } from '../core/ports/ports.ts';
import { NO_RATE_LIMIT_DEADLINE, pgliteClient, postgresClient, testPostgres } from './_databases.ts';
import { OPERATOR_TOKEN } from './_operator.ts';
import { createTestApp, type ManualClock, manualClock, type TestAppOptions } from './_setup.ts';

export interface Instances {
  apps: App[];
  /** The first app's storage. */
  storage: Storage;
  clock: ManualClock;
  /** Closes the storages and drops the schema. */
  close(): Promise<void>;
}

/** Options of the app of instance `index` (0, 1, ...) beyond the shared ones: an online key, a purge port. */
export type InstanceOptions = (index: number) => TestAppOptions;

const noMore: InstanceOptions = () => ({});

async function appsOn(storages: Storage[], clock: ManualClock, voterSecret: string, more: InstanceOptions): Promise<App[]> {
  const options = { clock, voterSecret, operatorToken: OPERATOR_TOKEN, rateLimit: { name: 't', limit: 1e9, windowSeconds: 60 } };
  return Promise.all(storages.map(async (storage, index) => (await createTestApp({ ...more(index), ...options, storage })).app));
}

async function sqlInstances(
  clients: SqlClient[],
  drop: () => Promise<void>,
  exclusive: boolean,
  voterSecret: string,
  more: InstanceOptions = noMore,
): Promise<Instances> {
  await migrate(clients[0]!);
  const clock = manualClock();
  const storages = clients.map((client) => createSqlStorage(client, exclusive ? { exclusive: { clock } } : { rateLimit: NO_RATE_LIMIT_DEADLINE }));
  return {
    apps: await appsOn(storages, clock, voterSecret, more),
    storage: storages[0]!,
    clock,
    async close() {
      for (const storage of storages) await storage.close();
      await drop();
    },
  };
}

/** The three targets by name, each making its instances with `voterSecret`. */
export function rampTargets(voterSecret: string): Record<string, () => Promise<Instances>> {
  return {
    memory: async () => {
      const clock = manualClock();
      const storage = createMemoryStorage({ clock });
      return { apps: await appsOn([storage], clock, voterSecret, noMore), storage, clock, close: async () => {} };
    },
    pglite: async () => {
      const client = await pgliteClient();
      return sqlInstances([client], async () => void (await client.exec(`drop schema "${client.schema}" cascade`)), true, voterSecret);
    },
    'two instances on postgres': () => postgresInstances(voterSecret),
  };
}

/** Two instances on one PostgreSQL (DATABASE_URL, else PGlite over the wire), each app given `more(index)` too. */
export async function postgresInstances(voterSecret: string, more: InstanceOptions = noMore): Promise<Instances> {
  const first = await postgresClient();
  const second = await postgresClient({ schema: first.schema });
  return sqlInstances([first, second], async () => (await testPostgres()).dropSchema(first.schema), false, voterSecret, more);
}
