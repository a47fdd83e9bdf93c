/**
 * Config files for the tests of the config loader: the example config with a change applied, written to a
 * temporary directory (with its version file), and the ConfigError message a setting gives.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, EXAMPLE_CONFIG, loadConfig } from '../server/config.ts';

export interface ConfigFiles {
  /** A config file: the example with `change` applied to its JSON. */
  configFile(change: (config: Record<string, unknown>) => void): string;
  /** Removes every file written (the test file's `after` hook). */
  removeAll(): void;
}

/** @param prefix The temporary directories' name prefix. */
export function exampleConfigFiles(prefix: string): ConfigFiles {
  const made: string[] = [];
  return {
    configFile(change) {
      const config = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
      change(config);
      const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
      made.push(dir);
      writeFileSync(join(dir, 'version.txt'), '2.4.1\n');
      writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
      return join(dir, 'config.json');
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The message of the ConfigError that loading the config with `env` throws. */
export function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env, process.cwd());
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
