#!/usr/bin/env node
/**
 * The `converter-site-api` program's entry point: server/cli/program.ts with this process's arguments,
 * stdout and stderr.
 *
 * @module
 */
import type { Io } from './command.ts';
import { endsTheProcess, runProgram } from './program.ts';

const io: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Resolves once what was written to `stream` so far has been handed to the OS. */
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));

const args = process.argv.slice(2);
// exitCode, not exit(): stdout is flushed first, and a serving server keeps the process alive. A command
// that ends the program (the conformance kit) exits once its output is flushed, whatever its target holds.
process.exitCode = await runProgram(args, io);
if (endsTheProcess(args)) {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}
