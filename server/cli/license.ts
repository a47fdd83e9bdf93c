/**
 * `converter-site-api license <command>` (`npm run license`); the commands are in license-command.ts beside it,
 * `updates` (an operator-API client) in license-updates.ts.
 *
 * @module
 */
import { LICENSE_HELP, runLicenseCommand } from './license-command.ts';
import { runLicenseUpdates } from './license-updates.ts';
import type { Command } from './command.ts';

export const license: Command = {
  name: 'license',
  summary: 'license-key tools: public-key, verify, generate-key, updates',
  help: LICENSE_HELP,
  async run(args, io) {
    // updates asks the operator API of a running server; the other commands work on the keys themselves.
    if (args[0] === 'updates') return runLicenseUpdates(args.slice(1), io);
    const result = await runLicenseCommand(args, process.env, process.cwd());
    io.stdout(result.stdout);
    io.stderr(result.stderr);
    return result.code;
  },
};
