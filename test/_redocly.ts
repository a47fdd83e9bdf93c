/**
 * `redocly lint` from node_modules over a document, offline, with the project's rules (redocly.yaml).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScaled } from './_load.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `redocly lint` from node_modules on the document, offline, and returns its JSON report. */
export function redoclyLint(document: unknown): Promise<{ totals: unknown; problems: unknown[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const args = [cli, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: dir, env, timeout: loadScaled(60_000) }, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`redocly lint printed no report (${String(error)}): ${stderr}`));
      }
    });
  });
}
