/**
 * The `converter-site-api` program, which server/cli/main.ts runs: `serve` (the default), `migrate`,
 * `export`, `license`, the operator commands `release`, `roadmap`, `webhooks`, `stats`, `orders`,
 * `feedback`, `audit` and `updates` (clients of the operator API; `updates` also signs roots offline),
 * `payments trigger` (test provider events), `conformance` and `scenarios` (the two sides of the test
 * kit) and `simulate` (the update files at scale), each with `--help`. Data goes to stdout,
 * messages to stderr; exit codes are those of command.ts in every command.
 *
 * @module
 */
import { ConfigError } from '../config-error.ts';
import { type Command, EXIT, HelpRequested, type Io, UsageError } from './command.ts';
import { exportData } from './export.ts';
import { license } from './license.ts';
import { migrate } from './migrate.ts';
import { orders } from './orders.ts';
import { payments } from './payments.ts';
import { release } from './release.ts';
import { roadmap } from './roadmap.ts';
import { webhooks } from './webhooks.ts';
import { stats } from './stats.ts';
import { feedback } from './feedback.ts';
import { audit } from './audit.ts';
import { updates } from './updates.ts';
import { serve } from './serve.ts';
import { conformance } from './conformance.ts';
import { scenarios } from './scenarios.ts';
import { simulate } from './simulate.ts';

const PROGRAM = 'converter-site-api';
const COMMANDS: readonly Command[] = [
  serve,
  migrate,
  exportData,
  license,
  release,
  roadmap,
  webhooks,
  stats,
  orders,
  payments,
  feedback,
  audit,
  updates,
  conformance,
  scenarios,
  simulate,
];

const HELP = `usage: ${PROGRAM} [command] [options]

The public website API of the spreadsheet converter, as a standalone server and its operator commands.
Every command reads the same environment and config file as the server (docs/configuration.md).

commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(12)}${command.summary}`).join('\n')}

Run \`${PROGRAM} <command> --help\` for a command's options.
exit codes: 0 done, 1 failed, 64 usage error, 78 configuration error or DATA_DIR held by another process
`;

/** The command and its arguments: a first word that is not a flag names the command; else serve. */
function choose(args: string[]): { command: Command | undefined; rest: string[] } {
  const [first, ...rest] = args;
  if (first === undefined) return { command: serve, rest };
  if (first === '--help' || first === '-h') return { command: undefined, rest };
  if (first.startsWith('-')) return { command: serve, rest: args };
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(first)}; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`);
  return { command, rest };
}

/**
 * Whether the command these arguments name ends the process once its output is written (`endsProcess`:
 * the conformance kit, whatever its target still holds open); false for any other, or arguments that
 * name none.
 */
export function endsTheProcess(args: string[]): boolean {
  try {
    return choose(args).command?.endsProcess === true;
  } catch {
    return false;
  }
}

/**
 * Runs the program: chooses the command from the first word, runs it, and turns what it throws into a
 * message on stderr and an exit code (command.ts). server/cli/main.ts calls it with the process's
 * arguments, stdout and stderr; tests call it in process with a captured `io`.
 *
 * @param args The words after the program's name.
 * @param io Where output goes.
 * @returns The exit code.
 */
export async function runProgram(args: string[], io: Io): Promise<number> {
  let name = PROGRAM;
  let chosen: Command | undefined;
  try {
    const { command, rest } = choose(args);
    if (!command) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    chosen = command;
    name = `${PROGRAM} ${command.name}`;
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof HelpRequested && chosen) {
      io.stdout(chosen.help);
      return EXIT.ok;
    }
    if (error instanceof UsageError) {
      io.stderr(`${name}: ${error.message}\nRun \`${name} --help\` for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError) {
      io.stderr(`${name}: configuration error: ${error.message}\n`);
      return EXIT.config;
    }
    io.stderr(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}
