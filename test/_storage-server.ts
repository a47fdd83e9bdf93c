/**
 * An app on one storage target (memory, PGlite, Postgres), for HTTP tests that must hold on every storage:
 * served by a real node:http server (`startStorageServer`), or answered in process through `app.handle`
 * (`startInProcessStorageServer`, test/_in-process.ts) when the socket is not what the test is about.
 */
import type { AppOptions } from '../core/app.ts';
import { type InProcessServer, startInProcessServer } from './_in-process.ts';
import { startTestServer, type TestServer } from './_setup.ts';
import type { OpenStorage, StorageTarget } from './storage/_targets.ts';

export interface StorageServer extends TestServer {
  opened: OpenStorage;
}

/** `StorageServer`'s shape without the socket: the same `request()`, answered by `app.handle`. */
export interface InProcessStorageServer extends InProcessServer {
  opened: OpenStorage;
}

/**
 * Opens a fresh storage of the target and serves an app on it; `close` stops both.
 *
 * @param target The storage.
 * @param overrides App options over the test defaults (manual clock, example content, simulator).
 */
export function startStorageServer(target: StorageTarget, overrides: Partial<AppOptions> = {}): Promise<StorageServer> {
  return onStorage(target, (storage) => startTestServer({ storage, ...overrides }));
}

/**
 * Opens a fresh storage of the target and an app on it answering in process; `close` closes the storage.
 *
 * @param target The storage.
 * @param overrides App options over the test defaults (manual clock, example content, simulator).
 */
export function startInProcessStorageServer(target: StorageTarget, overrides: Partial<AppOptions> = {}): Promise<InProcessStorageServer> {
  return onStorage(target, (storage) => startInProcessServer({ storage, ...overrides }));
}

async function onStorage<S extends TestServer | InProcessServer>(
  target: StorageTarget,
  start: (storage: OpenStorage['storage']) => Promise<S>,
): Promise<S & { opened: OpenStorage }> {
  const opened = await target.open();
  try {
    const server = await start(opened.storage);
    const close = server.close;
    return Object.assign(server, {
      opened,
      close: async () => {
        await close();
        await opened.close();
      },
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
}
