/**
 * What the server does before it opens PGlite, to keep its memory small: a new data directory is
 * initialised (initdb) in a child process, and WebAssembly is compiled by V8's baseline compiler only.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as v8 from 'node:v8';

/**
 * Keeps V8 from recompiling PGlite's hot WebAssembly functions with its optimising compiler (TurboFan).
 * Those compilations run on background threads whose allocator arenas stay resident afterwards: 40 to
 * 80 MB of an idle server's memory, for SQL that the server runs only to write (reads come from memory).
 * Runtimes without V8 flags (Bun) ignore it.
 */
export function compileWasmBaselineOnly(): void {
  try {
    v8.setFlagsFromString('--liftoff-only');
  } catch {
    // Not a V8 runtime, or one that refuses flags at run time: PGlite works the same.
  }
}

/** The command line that runs an ES module given as text, on the runtime running this process. */
function evalCommand(code: string): string[] | null {
  // Deno runs without --allow-run (npm run start:deno), and asking for it would prompt on a terminal.
  if ('Deno' in globalThis) return null;
  if (process.versions['bun']) return [process.execPath, '-e', code];
  return [process.execPath, '--input-type=module', '-e', code];
}

/** Runs a command to its end; its exit code, or null when it could not run. */
function run(command: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  });
}

/**
 * Initialises `dataDir` in a child process when it holds no database yet. PGlite's initdb runs a second
 * Postgres and keeps copies of its memory; in the server's own process that left about 600 MB resident
 * for good (the allocator does not hand it back), while a child's memory goes with the child.
 *
 * @param dataDir The data directory (it exists, and this process holds its lock).
 * @returns Whether the directory holds a database now; false leaves initdb to PGlite in this process
 *   (on Deno, or when no child could run), which works the same with more memory.
 */
export async function initPgliteDataDir(dataDir: string): Promise<boolean> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return true;
  const module = import.meta.resolve('@electric-sql/pglite');
  const code = `const { PGlite } = await import(${JSON.stringify(module)}); await (await PGlite.create(${JSON.stringify(dataDir)})).close();`;
  const command = evalCommand(code);
  if (!command) return false;
  return (await run(command)) === 0 && existsSync(join(dataDir, 'PG_VERSION'));
}
