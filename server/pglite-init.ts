/**
 * A new PGlite data directory is initialised (initdb) in a child process. PGlite's initdb runs a second
 * Postgres and keeps copies of its memory; in the server's own process that left about 600 MB resident for
 * good (the allocator does not hand it back), while the child's memory goes with the child.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The command line that runs an ES module given as text, on the runtime running this process. */
function evalCommand(code: string): string[] | null {
  // Deno runs without --allow-run (npm run start:deno), and asking for it would prompt on a terminal.
  if ('Deno' in globalThis) return null;
  if (process.versions['bun']) return [process.execPath, '-e', code];
  return [process.execPath, '--input-type=module', '-e', code];
}

function run(command: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', (error) => resolve({ code: null, stderr: String(error) }));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Initialises `dataDir` in a child process when it holds no database yet.
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
  const { code: exitCode } = await run(command);
  return exitCode === 0 && existsSync(join(dataDir, 'PG_VERSION'));
}
