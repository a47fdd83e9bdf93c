/**
 * `converter-site-api license <command>` (`npm run license`); the commands are in license-command.ts beside it.
 *
 * @module
 */
import { LICENSE_HELP, runLicenseCommand } from './license-command.ts';
import type { Command } from './command.ts';

export const license: Command = {
  name: 'license',
  summary: 'license-key tools: public-key, verify, generate-key',
  help: LICENSE_HELP,
  async run(args, io) {
    const result = await runLicenseCommand(args, process.env, process.cwd());
    io.stdout(result.stdout);
    io.stderr(result.stderr);
    return result.code;
  },
};
