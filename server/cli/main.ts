#!/usr/bin/env node
/**
 * The `converter-site-api` program's entry point: server/cli/program.ts with this process's arguments,
 * stdout and stderr.
 *
 * @module
 */
import type { Io } from './command.ts';
import { runProgram } from './program.ts';

const io: Io = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

// exitCode, not exit(): stdout is flushed first, and a serving server keeps the process alive.
process.exitCode = await runProgram(process.argv.slice(2), io);
