/**
 * tuf-js, the stock TUF 1.0 client of the update files' tests, in process: fetchers that hand its Updater
 * the files of a map or of an app (`app.handle`) without a socket, and an Updater over a new folder holding
 * the metadata it trusts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BaseFetcher, Updater } from 'tuf-js';
import { DownloadHTTPError } from 'tuf-js/dist/error.js';
import type { App } from '../core/app.ts';
import { bodyText, coreRequest } from './_setup.ts';

/** Where the tests' Updaters read a channel: no request reaches it, a fetcher answers. */
export const TUF_BASE = 'https://updates.example.com/updates/stable/';

type Stream = ReadableStream<Uint8Array<ArrayBuffer>>;

const encoder = new TextEncoder();
const streamOf = (bytes: Uint8Array): Stream => new ReadableStream({ start: (controller) => (controller.enqueue(new Uint8Array(bytes)), controller.close()) });
const notFound = (status = 404) => new DownloadHTTPError('Failed to download', status);

/** Serves files by their path under `base` (`2.root.json`, `targets/<sha256>.<name>`), as static files would be: 404 for any other. */
export class MapFetcher extends BaseFetcher {
  /** The paths asked for, in order. */
  readonly asked: string[] = [];
  readonly files: ReadonlyMap<string, string | Uint8Array>;
  constructor(files: ReadonlyMap<string, string | Uint8Array> | Readonly<Record<string, string>>, readonly base = TUF_BASE) {
    super();
    this.files = files instanceof Map ? files : new Map(Object.entries(files));
  }
  override fetch(url: string): Promise<Stream> {
    const path = url.startsWith(this.base) ? url.slice(this.base.length) : url;
    this.asked.push(path);
    const file = this.files.get(path);
    if (file === undefined) return Promise.reject(notFound());
    return Promise.resolve(streamOf(typeof file === 'string' ? encoder.encode(file) : file));
  }
}

/** Fetches through `app.handle` as a cache or a client would over HTTP; a target's 302 is followed to `installers` (by address). */
export class AppFetcher extends BaseFetcher {
  constructor(readonly app: App, readonly installers: ReadonlyMap<string, Uint8Array> = new Map()) {
    super();
  }
  override async fetch(url: string): Promise<Stream> {
    const answer = await this.app.handle(coreRequest({ path: new URL(url).pathname, clientIp: '198.51.100.7' }));
    const bytes = answer.status === 302
      ? this.installers.get(String(answer.headers['location']))
      : answer.status === 200
      ? encoder.encode(bodyText(answer))
      : undefined;
    if (bytes === undefined) throw notFound(answer.status === 200 ? 404 : answer.status);
    return streamOf(bytes);
  }
}

/** The metadata a client trusts, by role: the root it is pinned to, and what it kept of the others. */
export interface TrustedFiles {
  readonly root: string;
  readonly timestamp?: string;
  readonly snapshot?: string;
  readonly targets?: string;
}

/** A tuf-js Updater and its folder; `remove()` deletes the folder. */
export interface TufJsClient {
  updater: Updater;
  dir: string;
  remove(): void;
}

/**
 * A tuf-js Updater of the channel at `base`, over a new folder: `metadata/` holds `trusted` (role to text:
 * its root the one the client is pinned to), `targets/` takes its downloads.
 *
 * @param trusted The metadata it trusts, by role.
 * @param fetcher Where it reads the channel.
 * @param base The channel's address; its targets are under `targets/`.
 */
export function tufJsClient(trusted: TrustedFiles, fetcher: BaseFetcher, base = TUF_BASE): TufJsClient {
  const dir = mkdtempSync(join(tmpdir(), 'tuf-js-'));
  mkdirSync(join(dir, 'metadata'));
  mkdirSync(join(dir, 'targets'));
  for (const [role, text] of Object.entries(trusted)) if (text !== undefined) writeFileSync(join(dir, 'metadata', `${role}.json`), text);
  const updater = new Updater({
    metadataDir: join(dir, 'metadata'),
    metadataBaseUrl: base,
    targetDir: join(dir, 'targets'),
    targetBaseUrl: `${base}targets/`,
    fetcher,
  });
  return { updater, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
