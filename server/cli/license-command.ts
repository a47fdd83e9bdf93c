/**
 * `converter-site-api license <command>` (`npm run license -- <command>`): the operator's license-key tools. public-key prints what the
 * desktop app embeds, from LICENSE_SIGNING_KEY or else the key the server keeps in its persistent
 * storage (same environment as `npm start`); verify checks a key exactly as the app does, with the
 * public key alone; generate-key makes a LICENSE_SIGNING_KEY.
 *
 * @module
 */
import { generateSigningKey, looksLikeSimulatorKey, publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { EXIT, parseCommandLine, UsageError } from './command.ts';
import { ConfigError } from '../config-error.ts';
import { NoStoredSigningKey, readStoredSigningKey } from '../license-key.ts';
import { storageSettings } from '../storage-config.ts';

/** The help text of `converter-site-api license`. */
export const LICENSE_HELP = `usage: converter-site-api license <command>

  public-key                 print the public key the desktop app embeds (base64url of the raw 32 bytes),
                             of LICENSE_SIGNING_KEY or else of the key the server keeps in its storage
  verify <key> [--public-key <base64url>]
                             check a license key with the public key alone; print its payload (a key
                             typed by hand may be in any case, with or without dashes, in several words)
  generate-key               print a new LICENSE_SIGNING_KEY (base64 PKCS#8 Ed25519) and its public key
  updates <key or email> [--channel <name>] [--json]
                             which versions a license may install, and why: one line per stored release
                             of the channel (stable by default): version, verdict (covered, fallback bug
                             fix or paid upgrade), reason; an email takes every key of the buyer's paid
                             orders, as one installation. Asks the operator API of a running server
                             (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN); --json
                             prints its answer
From a checkout: npm run license -- <command>

exit codes: 0 done (VALID), 1 the key is INVALID, the storage failed, or the operator API refused or did
            not answer, 64 usage error, 78 no signing key is configured or stored, a setting is refused,
            another process holds DATA_DIR, or OPERATOR_URL or OPERATOR_TOKEN is missing
`;

/** What a command printed and its exit code. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** There is no signing key to read: a configuration problem (exit 78), with what to do about it. */
class NoKey extends Error {}

/**
 * The server's signing key, as the server reads it: LICENSE_SIGNING_KEY, else the key it generated and
 * kept in its persistent storage (PGlite's DATA_DIR or Postgres).
 */
async function serverSigningKey(env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const fromEnv = env['LICENSE_SIGNING_KEY']?.trim();
  if (fromEnv) return fromEnv;
  const settings = storageSettings(env, cwd);
  if (settings.kind === 'memory') {
    throw new NoKey(
      'LICENSE_SIGNING_KEY is not set, and STORAGE=memory keeps no generated key between runs.\n' +
        'Create one with `converter-site-api license generate-key`, set it as LICENSE_SIGNING_KEY for the server, and give its public key to the desktop app.\n',
    );
  }
  try {
    return await readStoredSigningKey(settings);
  } catch (error) {
    if (error instanceof NoStoredSigningKey) {
      throw new NoKey(
        `LICENSE_SIGNING_KEY is not set, and ${error.message}.\n` +
          'The server generates and keeps one on its first start with this storage; or set LICENSE_SIGNING_KEY (`converter-site-api license generate-key`).\n',
      );
    }
    if (error instanceof ConfigError && settings.kind === 'pglite') {
      throw new NoKey(
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
    throw new NoKey(`${env['LICENSE_SIGNING_KEY']?.trim() ? 'LICENSE_SIGNING_KEY' : 'The stored signing key'} is not a base64 PKCS#8 Ed25519 private key.\n`);
  }
}

async function verify(key: string, publicKeyFlag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Promise<CommandResult> {
  const publicKey = publicKeyFlag ?? (await serverPublicKey(env, cwd));
  const payload = await verifyLicenseKey(key, publicKey);
  if (!payload && looksLikeSimulatorKey(key)) {
    return {
      code: EXIT.failed,
      stdout: '',
      stderr: 'INVALID: this key comes from the payment simulator: no money was taken, and no app accepts it as a license.\n',
    };
  }
  if (!payload) return { code: EXIT.failed, stdout: '', stderr: 'INVALID: the key is malformed or its signature does not match this public key.\n' };
  return { code: EXIT.ok, stdout: `VALID ${JSON.stringify(payload)}\n`, stderr: '' };
}

async function generate(): Promise<CommandResult> {
  const key = await generateSigningKey();
  return { code: EXIT.ok, stdout: `LICENSE_SIGNING_KEY=${key}\n# public key for the desktop app: ${await publicKeyOf(key)}\n`, stderr: '' };
}

/**
 * Runs one command.
 *
 * @param args The words after `license`.
 * @param env The environment (LICENSE_SIGNING_KEY, STORAGE, DATA_DIR, DATABASE_URL, DATABASE_SCHEMA).
 * @param cwd Where a relative DATA_DIR starts from.
 * @throws UsageError for a command line it does not understand; ConfigError for a refused setting.
 */
export async function runLicenseCommand(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CommandResult> {
  // verify takes a typed key in as many words as the person split it into.
  const { values, positionals } = parseCommandLine(args, { 'public-key': { type: 'string' } }, args.includes('verify') ? args.length : 2);
  const [command] = positionals;
  const key = positionals.length > 1 ? positionals.slice(1).join(' ') : undefined;
  const publicKeyFlag = typeof values['public-key'] === 'string' ? values['public-key'] : undefined;
  if (command !== 'public-key' && command !== 'verify' && command !== 'generate-key') {
    throw new UsageError(
      command === undefined
        ? 'say which command: public-key, verify, generate-key or updates'
        : `unknown command ${JSON.stringify(command)}: public-key, verify, generate-key or updates`,
    );
  }
  if (command !== 'verify' && (key !== undefined || publicKeyFlag !== undefined)) {
    throw new UsageError(`${command} takes no ${key !== undefined ? `argument ${JSON.stringify(key)}` : '--public-key'}`);
  }
  try {
    if (command === 'public-key') return { code: EXIT.ok, stdout: `${await serverPublicKey(env, cwd)}\n`, stderr: '' };
    if (command === 'generate-key') return await generate();
    if (key === undefined) throw new UsageError('verify needs the license key to check');
    return await verify(key, publicKeyFlag, env, cwd);
  } catch (error) {
    if (error instanceof NoKey) return { code: EXIT.config, stdout: '', stderr: error.message };
    throw error;
  }
}
