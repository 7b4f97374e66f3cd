/**
 * Resolves once `check` holds, looking every 20 ms: for a state no event announces (another
 * process's exit, a row a server's own timer writes). It has no deadline of its own, which a busy
 * machine could outlast; a state that never comes fails the test at its timeout.
 */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}
