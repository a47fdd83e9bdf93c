/**
 * A server started by npm (`npx converter-site-api`, `npm start`) runs as the child of the shell npm
 * starts it with. When npm gets SIGTERM it exits without passing the signal on, and Debian's /bin/sh
 * (dash) does not either, so the server would serve on as an orphan. Such a server therefore also stops
 * when the process that started it is gone.
 *
 * @module
 */

/**
 * Calls `onGone` once, when this process's parent changes (it exited and the process was re-parented),
 * if npm started this process; otherwise does nothing. The check runs every `everyMs` and never keeps
 * the process alive.
 *
 * @param onGone What to do then: the same as on SIGTERM.
 * @param env The environment: npm sets `npm_lifecycle_event` (`npx`, `start`, ...) for what it runs.
 * @param everyMs How often to look.
 */
export function stopWithNpmParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 250): void {
  if (!env['npm_lifecycle_event']) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
}
