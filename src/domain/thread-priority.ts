import { getPriority, setPriority } from "node:os";

/** How much lower than the server a thread or process doing bulk work runs (nice steps). */
export const BULK_NICE = 10;

/** Linux's lowest priority. */
const LOWEST = 19;

let yielded = false;

/**
 * Lowers the calling thread's CPU priority by BULK_NICE (once, however often it is called), so
 * that on a busy machine the thread that answers requests runs first and the bulk work takes
 * what is left. Linux keeps a nice value per thread (setpriority on pid 0 changes the caller
 * alone; a new thread starts at its creator's); an unprivileged thread can lower its priority but
 * never raise it again, so this is for a thread's whole life. Where the system refuses, the
 * thread keeps its priority.
 */
export function yieldCpu(): void {
  if (yielded) return;
  yielded = true;
  try {
    setPriority(Math.min(LOWEST, getPriority() + BULK_NICE));
  } catch {
    // not permitted here: the work still runs, at the process's priority
  }
}
