/**
 * What every subcommand of the `converter-site-api` program shares: its shape, the sysexits codes, and
 * argument parsing by node:util parseArgs that turns every mistake into a usage error.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes, from sysexits: the same condition gives the same code in every command. */
export const EXIT = {
  ok: 0,
  /** The command ran and failed: a database that does not answer, a key that does not verify. */
  failed: 1,
  /** EX_USAGE: an unknown command or flag, a missing or extra argument. */
  usage: 64,
  /** EX_CONFIG: a setting is refused, or another process holds the PGlite data directory. */
  config: 78,
} as const;

/** A mistake in the command line; the program prints it with a pointer to --help and exits 64. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * `--help` or `-h` was given: thrown by parseCommandLine, so that no command handles it itself; the
 * program prints the command's help and exits 0 (server/cli/program.ts).
 */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
}

/** Where a command writes: data to stdout, messages to stderr. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** One subcommand of the program. */
export interface Command {
  name: string;
  /** One line for the program's --help. */
  summary: string;
  /** The command's --help text. */
  help: string;
  /**
   * Runs the command.
   *
   * @param args The words after the command's name.
   * @param io Where output goes.
   * @returns The exit code.
   * @throws UsageError, ConfigError, or anything else (exit 1).
   */
  run(args: string[], io: Io): Promise<number>;
  /**
   * True for a command that ends the program when it returns, its output flushed, whatever handles are
   * still open: `conformance`, whose target may hold its connections open, and whose runtime may keep one
   * after an aborted request (undici since 8.10.1 opens a fresh idle connection after an aborted streaming
   * response, nodejs/undici#5845): a CI job must not wait for either.
   */
  endsProcess?: boolean;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** The values of a command's flags: a string for each flag that takes one (every one given, for a `multiple` flag), true for a switch given. */
export type FlagValues<O extends Options> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? (O[K] extends { multiple: true } ? string[] : string) : boolean;
};

/** A parsed command line. */
export interface ParsedCommandLine<O extends Options = Options> {
  values: FlagValues<O>;
  positionals: string[];
}

/**
 * Refuses a flag given that an action does not take, as a UsageError naming it: `--reason is not an
 * option of orders upgrade`.
 *
 * @param command The command's name.
 * @param action The action's name (the word after the command).
 * @param values The flags given, as parseCommandLine read them.
 * @param takes The flags the action takes.
 * @throws UsageError for the first flag given that is not one of them.
 */
export function refuseOtherFlags(command: string, action: string, values: object, takes: readonly string[]): void {
  const given = Object.entries(values).filter(([, value]) => value !== undefined).map(([flag]) => flag);
  const stray = given.find((flag) => !takes.includes(flag));
  if (stray !== undefined) throw new UsageError(`--${stray} is not an option of ${command} ${action}`);
}

/**
 * Joins each flag that takes a value with the word after it (`--public-key -Ab` to `--public-key=-Ab`):
 * parseArgs refuses a value that starts with a dash, and base64url keys may.
 */
function joinValues(args: string[], options: Options): string[] {
  const takesValue = new Set(
    Object.entries(options).flatMap(([name, option]) => (option.type === 'string' ? [`--${name}`, ...(option.short ? [`-${option.short}`] : [])] : [])),
  );
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = args[i + 1];
    if (arg === '--') return [...joined, ...args.slice(i)];
    if (takesValue.has(arg) && value !== undefined) {
      joined.push(arg.startsWith('--') ? `${arg}=${value}` : `${arg}${value}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/**
 * Parses a command's arguments strictly: an unknown flag, a flag without its value or a stray word is a
 * UsageError. `--help` and `-h` are understood everywhere: they throw HelpRequested.
 *
 * @param args The words after the command's name.
 * @param options The command's flags.
 * @param positionals How many words besides flags the command takes at most.
 * @returns The flag values and the words.
 * @throws UsageError, or HelpRequested.
 */
export function parseCommandLine<const O extends Options>(args: string[], options: O, positionals = 0): ParsedCommandLine<O> {
  try {
    const parsed = parseArgs({
      args: joinValues(args, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    // parseArgs gives each flag the type its option names (strict: true refuses any other flag).
    const values = parsed.values as FlagValues<O>;
    if ((parsed.values as { help?: boolean }).help === true) throw new HelpRequested();
    if (parsed.positionals.length > positionals) {
      throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals])}`);
    }
    return { values, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof UsageError || error instanceof HelpRequested) throw error;
    // parseArgs names the flag: "Unknown option '--x'", "Option '--out <value>' argument missing".
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}
