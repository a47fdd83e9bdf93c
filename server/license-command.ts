/**
 * `npm run license -- <command>`: the operator's license-key tools. public-key prints what the
 * desktop app embeds, from LICENSE_SIGNING_KEY or else the key the server keeps in its persistent
 * storage (same environment as `npm start`); verify checks a key exactly as the app does, with the
 * public key alone; generate-key makes a LICENSE_SIGNING_KEY.
 *
 * @module
 */
import { generateSigningKey, publicKeyOf, verifyLicenseKey } from '../core/license.ts';
import { ConfigError } from './config-error.ts';
import { NoStoredSigningKey, readStoredSigningKey } from './license-key.ts';
import { storageSettings } from './storage-config.ts';

const USAGE = `usage: npm run license -- <command>

  public-key                 print the public key the desktop app embeds (base64url of the raw 32 bytes),
                             of LICENSE_SIGNING_KEY or else of the key the server keeps in its storage
  verify <key> [--public-key <base64url>]
                             check a license key with the public key alone; print its payload
  generate-key               print a new LICENSE_SIGNING_KEY (base64 PKCS#8 Ed25519) and its public key
`;

/** What a command printed and its exit code. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

class UsageError extends Error {}

/**
 * The server's signing key, as the server reads it: LICENSE_SIGNING_KEY, else the key it generated and
 * kept in its persistent storage (PGlite's DATA_DIR or Postgres).
 */
async function serverSigningKey(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const fromEnv = env['LICENSE_SIGNING_KEY']?.trim();
  if (fromEnv) return fromEnv;
  const settings = storageSettings(env, cwd);
  if (settings.kind === 'memory') {
    throw new UsageError(
      'LICENSE_SIGNING_KEY is not set, and STORAGE=memory keeps no generated key between runs.\n' +
        'Create one with `npm run license -- generate-key`, set it as LICENSE_SIGNING_KEY for the server, and give its public key to the desktop app.\n',
    );
  }
  try {
    return await readStoredSigningKey(settings);
  } catch (error) {
    if (error instanceof NoStoredSigningKey) {
      throw new UsageError(
        `LICENSE_SIGNING_KEY is not set, and ${error.message}.\n` +
          'The server generates and keeps one on its first start with this storage; or set LICENSE_SIGNING_KEY (`npm run license -- generate-key`).\n',
      );
    }
    if (error instanceof ConfigError && settings.kind === 'pglite') {
      throw new UsageError(
        `${error.message}.\nThe running server printed the public key in its startup log ('license keys are signed with Ed25519'); or stop it and run this again.\n`,
      );
    }
    throw error;
  }
}

async function serverPublicKey(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const key = await serverSigningKey(env, cwd);
  try {
    return await publicKeyOf(key);
  } catch {
    throw new UsageError(`${env['LICENSE_SIGNING_KEY']?.trim() ? 'LICENSE_SIGNING_KEY' : 'The stored signing key'} is not a base64 PKCS#8 Ed25519 private key.\n`);
  }
}

async function verify(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CommandResult> {
  const flag = args.indexOf('--public-key');
  const publicKey = flag >= 0 ? args[flag + 1] : await serverPublicKey(env, cwd);
  const keys = args.filter((_, i) => flag < 0 || (i !== flag && i !== flag + 1));
  if (keys.length !== 1 || !publicKey) throw new UsageError(USAGE);
  const payload = await verifyLicenseKey(keys[0]!, publicKey);
  if (!payload) return { code: 1, stdout: '', stderr: 'INVALID: the key is malformed or its signature does not match this public key.\n' };
  return { code: 0, stdout: `VALID ${JSON.stringify(payload)}\n`, stderr: '' };
}

/**
 * Runs one command.
 *
 * @param args The words after `--`.
 * @param env The environment (LICENSE_SIGNING_KEY, STORAGE, DATA_DIR, DATABASE_URL, DATABASE_SCHEMA).
 * @param cwd Where a relative DATA_DIR starts from.
 */
export async function runLicenseCommand(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CommandResult> {
  const [command, ...rest] = args;
  try {
    if (command === 'public-key' && rest.length === 0) return { code: 0, stdout: `${await serverPublicKey(env, cwd)}\n`, stderr: '' };
    if (command === 'verify') return await verify(rest, env, cwd);
    if (command === 'generate-key' && rest.length === 0) {
      const key = await generateSigningKey();
      const stdout = `LICENSE_SIGNING_KEY=${key}\n# public key for the desktop app: ${await publicKeyOf(key)}\n`;
      return { code: 0, stdout, stderr: '' };
    }
    throw new UsageError(USAGE);
  } catch (error) {
    if (error instanceof UsageError) return { code: 2, stdout: '', stderr: error.message };
    throw error;
  }
}
