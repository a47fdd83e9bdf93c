/**
 * A real node:http server over an app on one storage target (memory, PGlite, Postgres): for HTTP tests
 * that must hold on every storage.
 */
import type { AppOptions } from '../core/app.ts';
import { startTestServer, type TestServer } from './_setup.ts';
import type { OpenStorage, StorageTarget } from './storage/_targets.ts';

export interface StorageServer extends TestServer {
  opened: OpenStorage;
}

/**
 * Opens a fresh storage of the target and serves an app on it; `close` stops both.
 *
 * @param target The storage.
 * @param overrides App options over the test defaults (manual clock, example content, simulator).
 */
export async function startStorageServer(target: StorageTarget, overrides: Partial<AppOptions> = {}): Promise<StorageServer> {
  const opened = await target.open();
  try {
    const server = await startTestServer({ storage: opened.storage, ...overrides });
    return {
      ...server,
      opened,
      close: async () => {
        await server.close();
        await opened.close();
      },
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
