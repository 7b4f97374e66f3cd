import { setPriority } from "node:os";

/** The nice value of a thread doing bulk work (scoring, checking a large file). */
export const BULK_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to BULK_NICE, so that on a busy machine the thread that
 * answers requests runs first and the bulk work takes what is left. Linux keeps a nice value per
 * thread (setpriority on pid 0 changes the caller alone); an unprivileged thread can lower its
 * priority but never raise it again, so this is for a thread's whole life. Where the system
 * refuses, the thread keeps its priority.
 */
export function yieldCpu(): void {
  try {
    setPriority(BULK_NICE);
  } catch {
    // not permitted here: the work still runs, at the process's priority
  }
}
