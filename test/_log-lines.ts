/**
 * The JSON log lines a server program printed, for tests that read its stdout.
 */

/** One log line: its fields, with the message every line has. */
export type LogLine = Record<string, unknown> & { message: string };

/** The JSON lines printed whole so far (a line still being written is left out). */
export function logLines(text: string): LogLine[] {
  return text
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}
