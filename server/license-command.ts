/**
 * `npm run license -- <command>`: the operator's license-key tools. public-key prints what the
 * desktop app embeds; verify checks a key exactly as the app does, with the public key alone;
 * generate-key makes a LICENSE_SIGNING_KEY.
 *
 * @module
 */
import { generateSigningKey, publicKeyOf, verifyLicenseKey } from '../core/license.ts';
import { loadConfig } from './config.ts';

const USAGE = `usage: npm run license -- <command>

  public-key                 print the public key the desktop app embeds (base64url of the raw 32 bytes)
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

/** The server's signing key: LICENSE_SIGNING_KEY, as the server reads it. */
function serverSigningKey(env: NodeJS.ProcessEnv, cwd: string): string {
  const fromEnv = env['LICENSE_SIGNING_KEY']?.trim();
  if (fromEnv) return fromEnv;
  const { storage } = loadConfig(env, cwd);
  // A generated key lives in storage; reading it from PGlite or Postgres is not wired here yet.
  throw new UsageError(
    `LICENSE_SIGNING_KEY is not set, and STORAGE=${storage.kind} keeps no generated key between runs.\n` +
      'Create one with `npm run license -- generate-key`, set it as LICENSE_SIGNING_KEY for the server, and give its public key to the desktop app.\n',
  );
}

async function serverPublicKey(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const key = serverSigningKey(env, cwd);
  try {
    return await publicKeyOf(key);
  } catch {
    throw new UsageError('LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key.\n');
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
 * @param env The environment (LICENSE_SIGNING_KEY, CONFIG_FILE, STORAGE).
 * @param cwd Where a relative CONFIG_FILE starts from.
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
