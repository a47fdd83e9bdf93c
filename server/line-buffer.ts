/**
 * Lines gathered in memory and written in one go at the end of the event-loop turn (or at 16 KiB): with
 * the access log on, one write per request would be one system call per request.
 *
 * @module
 */

export interface LineBuffer {
  /** Adds one line (with its line feed). */
  add(line: string): void;
  /** Writes what is gathered now. */
  flush(): void;
}

const FLUSH_AT = 16 * 1024;

/**
 * Creates a buffer in front of a writer.
 *
 * @param write Writes text, e.g. to stdout.
 */
export function createLineBuffer(write: (text: string) => void): LineBuffer {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return {
    add(line) {
      pending += line;
      if (pending.length >= FLUSH_AT) flush();
      else if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 0);
      }
    },
    flush,
  };
}
