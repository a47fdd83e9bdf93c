/**
 * The packed package, built once per state of the sources: `npm pack` (which builds with tsup) runs
 * under a lock, and its tarball is kept in node_modules/.cache under a hash of what goes into it, so the
 * test files that install it (the pack test, the docs examples) share one build. `npm test` packs once
 * before those files (scripts/test-report/pack.ts) and names the tarball in TEST_PACKED_TARBALL; a file run
 * alone packs here.
 *
 * Installing is done by hand: `npm install --offline` needs the registry metadata of every dependency in
 * npm's cache, which `npm ci` on a fresh machine does not put there, and tests reach nothing beyond
 * 127.0.0.1. The tarball is unpacked as node_modules/converter-site-api and its dependencies (and the
 * tools a reader would install beside it) are linked from this repository's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../_spawn.ts';

const CACHE = join(ROOT, 'node_modules/.cache/converter-site-api-pack');
/** What the tarball cannot depend on. */
const NOT_PACKED = /^(test|docs\/examples|bench|\.ci)\//;

/** A hash of every file the tarball may be built from: the repository's files but the tests and the doc examples. */
function sourceHash(): string {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  const hash = createHash('sha256');
  for (const file of listed.split('\n').filter((name) => name && !NOT_PACKED.test(name)).sort()) {
    const path = join(ROOT, file);
    // A listed name may be a link to a folder (a node_modules linked in from elsewhere): files only.
    if (existsSync(path) && statSync(path).isFile()) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Blocks this process for `ms` (only while another test process holds the build lock). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The tarball of the current sources: the one `npm test` packed for its run (TEST_PACKED_TARBALL, set by
 * scripts/run-tests.ts), else packed by this call or an earlier one.
 *
 * @returns Its path.
 */
export function packedTarball(): string {
  const packedForTheRun = process.env['TEST_PACKED_TARBALL'];
  if (packedForTheRun) return packedForTheRun;
  const tarball = join(CACHE, `${sourceHash()}.tgz`);
  const lock = join(CACHE, 'lock');
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(tarball)) return tarball;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const holder = Number(readFileSync(join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (holder && !processAlive(holder)) rmSync(lock, { recursive: true, force: true });
      else pause(250);
    }
  }
  try {
    if (existsSync(tarball)) return tarball;
    const out = mkdtempSync(join(CACHE, 'pack-'));
    const name = execFileSync('npm', ['pack', '--pack-destination', out, '--silent'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')
      .pop()!;
    for (const old of readdirSync(CACHE).filter((file) => file.endsWith('.tgz'))) rmSync(join(CACHE, old));
    renameSync(join(out, name), tarball);
    rmSync(out, { recursive: true, force: true });
    return tarball;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A fresh project (package.json of type module) with the tarball installed.
 *
 * @param project The project directory; created.
 * @param tarball The packed package.
 * @param tools Packages a reader would install beside it (tsx, express), linked from this repository.
 * @param bins Their commands, linked into node_modules/.bin: name -> path inside node_modules.
 */
export function installProject(project: string, tarball: string, tools: string[] = [], bins: Record<string, string> = {}): void {
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  const unpacked = mkdtempSync(join(dirname(project), 'unpack-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
  renameSync(join(unpacked, 'package'), join(project, 'node_modules/converter-site-api'));
  rmSync(unpacked, { recursive: true, force: true });
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules/converter-site-api/package.json'), 'utf8')) as {
    version: string;
    bin?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
  };
  const names = new Set(
    [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap((deps) => Object.keys(deps ?? {})),
  );
  for (const dependency of [...names, ...tools]) {
    const target = join(project, 'node_modules', dependency);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dependency), target, 'dir');
  }
  for (const [name, path] of Object.entries(bins)) symlinkSync(join('..', path), join(project, 'node_modules/.bin', name));
  // The package's own commands, executable, as npm links them.
  for (const [name, file] of Object.entries(manifest.bin ?? {})) {
    chmodSync(join(project, 'node_modules/converter-site-api', file), 0o755);
    symlinkSync(join('../converter-site-api', file), join(project, 'node_modules/.bin', name));
  }
  const dependencies = Object.fromEntries([['converter-site-api', `^${manifest.version}`], ...tools.map((tool) => [tool, '*'])]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-site', private: true, type: 'module', dependencies }, null, 2));
}
