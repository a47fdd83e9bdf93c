/**
 * The `npm run license` program; see license-command.ts.
 *
 * @module
 */
import { ConfigError } from './config.ts';
import { runLicenseCommand } from './license-command.ts';

try {
  const result = await runLicenseCommand(process.argv.slice(2), process.env, process.cwd());
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n`);
    process.exitCode = 78;
  } else {
    // The storage could not be read (a database that does not answer): the cause, without a stack.
    process.stderr.write(`license: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
