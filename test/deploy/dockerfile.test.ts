/**
 * The Dockerfile, replayed without a Docker engine: every stage's instructions run in order in a
 * temporary directory per stage (RUN through sh in the stage's WORKDIR, COPY from the build context
 * filtered by .dockerignore or from an earlier stage, ENV, USER, VOLUME), then the image's CMD is started
 * as its USER with its ENV, probed over HTTP and by its own HEALTHCHECK command, and stopped with SIGTERM.
 *
 * What differs from `docker build`: the base image is this machine (its node, sh and npm, not the
 * image's), absolute paths inside the image (WORKDIR, COPY, VOLUME, and ENV values such as DATA_DIR) are
 * mapped into the stage's directory, npm runs offline from the cache the repository's own install
 * filled, and PORT is set to a free port as `docker run -e PORT=...` would. USER and `chown` are replayed
 * only when the test runs as root.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, posix, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { freePort, ROOT } from '../_spawn.ts';
import { dockerIgnored, parseDockerfile, readDockerignore, type Stage } from './_dockerfile.ts';
import { loadScaled } from '../_load.ts';

const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const ignore = readDockerignore(readFileSync(join(ROOT, '.dockerignore'), 'utf8'));
const asRoot = process.getuid?.() === 0;
const work = mkdtempSync(join(tmpdir(), 'dockerfile-replay-'));
// The image's user must reach its files, as in an image whose directories are world-readable.
chmodSync(work, 0o755);
test.after(() => rmSync(work, { recursive: true, force: true }));

/**
 * What RUN steps see of this machine: PATH, HOME, and where npm keeps its cache and user config (set by
 * `npm test` when it runs this file), so that npm finds the packages the repository's install cached.
 */
const NPM_SETUP: Record<string, string> = Object.fromEntries(
  ['PATH', 'HOME', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_registry'].flatMap((name) => {
    const value = process.env[name];
    return value === undefined ? [] : [[name, value]];
  }),
);

/** What a replayed stage leaves: its files and the settings of an image made from it. */
interface Image {
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: { uid: number; gid: number } | null;
  volumes: string[];
  exposed: number[];
  healthcheck: string[] | null;
  cmd: string[] | null;
}

const inside = (image: Image, path: string) => join(image.root, path);
/** ENV values that are absolute paths name places inside the image. */
const processEnv = (image: Image) =>
  Object.fromEntries(Object.entries(image.env).map(([name, value]) => [name, value.startsWith('/') ? inside(image, value) : value]));

function copyFromContext(sources: string[], dest: string): void {
  const filter = (path: string) => {
    const rel = relative(ROOT, path).split('\\').join('/');
    return rel === '' || !dockerIgnored(ignore, rel);
  };
  for (const source of sources) {
    if (source === '.') {
      for (const entry of readdirSync(ROOT)) {
        if (filter(join(ROOT, entry))) cpSync(join(ROOT, entry), join(dest, entry), { recursive: true, filter, verbatimSymlinks: true });
      }
      continue;
    }
    assert.ok(filter(join(ROOT, source)), `COPY ${source}: .dockerignore leaves it out of the context`);
    cpSync(join(ROOT, source), statSync(join(ROOT, source)).isDirectory() ? dest : join(dest, basename(source)), { recursive: true, verbatimSymlinks: true });
  }
}

/** One RUN step through sh, to its end (a stage beside it runs meanwhile). */
function runStep(command: string, cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('/bin/sh', ['-c', command], { cwd, env, timeout: 240_000, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function replayStage(stage: Stage, index: number, built: Map<string, Image>): Promise<Image> {
  const image: Image = { root: join(work, `stage-${index}`), workdir: '/', env: {}, user: null, volumes: [], exposed: [], healthcheck: null, cmd: null };
  mkdirSync(image.root, { mode: 0o755 });
  for (const step of stage.steps) {
    const here = inside(image, image.workdir);
    switch (step.op) {
      case 'WORKDIR':
        image.workdir = posix.resolve(image.workdir, step.path);
        mkdirSync(inside(image, image.workdir), { recursive: true, mode: 0o755 });
        break;
      case 'ENV':
        Object.assign(image.env, step.values);
        break;
      case 'COPY': {
        const dest = inside(image, posix.resolve(image.workdir, step.dest));
        assert.is(step.chown, null, 'COPY --chown is not replayed');
        if (step.from === null) {
          copyFromContext(step.sources, dest);
        } else {
          const from = built.get(step.from);
          assert.ok(from, `COPY --from=${step.from}: no earlier stage of that name`);
          for (const source of step.sources) cpSync(inside(from, source), dest, { recursive: true, verbatimSymlinks: true });
        }
        break;
      }
      case 'RUN': {
        assert.not.match(step.command, /(^|\s)\/\w/, `RUN ${step.command}: the replay cannot map absolute paths in commands`);
        if (!asRoot && /^chown\b/.test(step.command)) break;
        const env = { ...NPM_SETUP, npm_config_offline: 'true', npm_config_update_notifier: 'false', ...processEnv(image) };
        const run = await runStep(step.command, here, env);
        assert.is(run.status, 0, `RUN ${step.command} (stage ${stage.name ?? index}) failed:\n${run.stdout}\n${run.stderr}`);
        break;
      }
      case 'USER': {
        const [uid, gid] = step.user.split(':').map(Number);
        assert.ok(Number.isInteger(uid) && Number.isInteger(gid), `USER ${step.user}: the replay needs numeric uid:gid`);
        image.user = { uid: uid!, gid: gid! };
        break;
      }
      case 'VOLUME':
        image.volumes.push(step.path);
        mkdirSync(inside(image, step.path), { recursive: true });
        break;
      case 'EXPOSE':
        image.exposed.push(step.port);
        break;
      case 'HEALTHCHECK':
        image.healthcheck = step.command;
        break;
      case 'CMD':
        image.cmd = step.command;
        break;
    }
  }
  return image;
}

/** The size of a directory tree in bytes, as `du --apparent-size` counts it. */
function treeBytes(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat || !stat.isDirectory()) return stat?.size ?? 0;
  return readdirSync(path).reduce((sum, entry) => sum + treeBytes(join(path, entry)), 0);
}

let image: Image | undefined;

test('every stage builds: the build, the production install, then the runtime image', async () => {
  assert.ok(stages.length >= 2, 'a multi-stage build');
  assert.ok(stages.every((stage) => stage.image === stages[0]!.image), 'one base image for every stage');
  // As BuildKit does, a stage starts once the stages it copies from are built: the build and the
  // production install run side by side, the runtime image after both.
  const replays = new Map<string, Promise<Image>>();
  const images = await Promise.all(
    stages.map((stage, index) => {
      const replay = (async () => {
        const built = new Map<string, Image>();
        for (const step of stage.steps) {
          if (step.op !== 'COPY' || step.from === null) continue;
          const from = replays.get(step.from);
          if (from) built.set(step.from, await from);
        }
        return replayStage(stage, index, built);
      })();
      if (stage.name) replays.set(stage.name, replay);
      return replay;
    }),
  );
  image = images.at(-1);
  assert.ok(existsSync(inside(image!, '/app/dist/cli.js')), 'the program is in the image');
});

test('the runtime image holds only the production install (at most 60 MB of node_modules), runs as a non-root user, keeps its state in /data', () => {
  assert.ok(image, 'the build ran');
  const modules = inside(image, '/app/node_modules');
  const installed = readdirSync(modules).filter((name) => !name.startsWith('.'));
  assert.equal(installed.sort(), ['@electric-sql', '@valibot', 'nodemailer', 'postgres', 'valibot']);
  assert.ok(treeBytes(modules) <= 60e6, `node_modules is ${(treeBytes(modules) / 1e6).toFixed(1)} MB`);
  assert.ok(image.user && image.user.uid !== 0, 'USER is not root');
  assert.equal(image.volumes, ['/data']);
  assert.is(image.env['DATA_DIR'], '/data');
  assert.equal(image.exposed, [Number(image.env['PORT'])]);
  if (asRoot) assert.is(statSync(inside(image, '/data')).uid, image.user.uid, '/data belongs to the image user');
});

test('the image starts as its USER, serves, passes its HEALTHCHECK, stores in /data, and exits 0 on SIGTERM', async () => {
  assert.ok(image?.cmd && image.healthcheck, 'CMD and HEALTHCHECK are set');
  const port = await freePort();
  // As `docker run -e PORT=... -e PAYMENT_GATEWAY=simulator` would: NODE_ENV=production needs a gateway named.
  const env = { PATH: process.env['PATH'] ?? '', ...processEnv(image), PORT: String(port), PAYMENT_GATEWAY: 'simulator' };
  // The image's node is this machine's node.
  const exec = (command: string[]) => [command[0] === 'node' ? process.execPath : command[0]!, command.slice(1)] as const;
  const user = asRoot && image.user ? image.user : {};
  const [file, args] = exec(image.cmd);
  const child = spawn(file, args, { cwd: inside(image, image.workdir), env, ...user, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (output += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const startMs = loadScaled(60_000);
      const timer = setTimeout(() => reject(new Error(`no 'listening' within ${startMs} ms:\n${output}`)), startMs);
      child.stdout.on('data', () => output.includes('"message":"listening"') && (clearTimeout(timer), resolve()));
      void exited.then((code) => (clearTimeout(timer), reject(new Error(`exited with ${code}:\n${output}`))));
    });
    const base = `http://127.0.0.1:${port}`;
    assert.is((await sendRequest(base, { path: '/api/v1/version' })).status, 200);
    const vote = await sendRequest(base, { method: 'POST', path: '/api/v1/roadmap', body: '{"featureId":1}', headers: { 'content-type': 'application/json' } });
    assert.equal([vote.status, vote.text], [200, '{"voted":true,"vote_count":1}']);
    const [hcFile, hcArgs] = exec(image.healthcheck);
    const healthcheck = spawnSync(hcFile, hcArgs, { env, ...user, encoding: 'utf8', timeout: 10_000 });
    const liveness = await sendRequest(base, { path: '/healthz' });
    assert.equal([liveness.status, liveness.text], [200, '{"status":"ok"}']);
    assert.is(healthcheck.status, 0, healthcheck.stderr);
    if (asRoot) assert.is(statSync(inside(image, '/data/PG_VERSION')).uid, image.user!.uid, 'PGlite wrote /data as the image user');
  } finally {
    child.kill('SIGTERM');
  }
  assert.is(await exited, 0, output);
});

test.run();
