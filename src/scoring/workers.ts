import type { Worker } from "node:worker_threads";
import { startWorker } from "../domain/worker-thread.js";

export { startWorker, workerModule } from "../domain/worker-thread.js";

/** Chunks queued at each worker at once. */
export const IN_FLIGHT = 2;

/**
 * Runs `count` jobs in chunks over `workers` worker threads and this thread at once. A worker
 * module gets `workerData`, posts `{ready: true}` once set up, then answers each chunk message
 * with `{start, results}`. Chunks are handed out on demand, so slow starters get fewer; each
 * worker holds IN_FLIGHT of them, so it never waits for this thread (busy with its own chunk) to
 * hand it the next. Chunks shrink (down to one job) as the jobs run out, so no thread is left
 * idle at the end while another still works through chunks it was handed early.
 *
 * A worker that needs no `workerData` (null) holds no state of the job, so after a job that went
 * well it is kept idle (not keeping the process alive) for the next job on the same module: a
 * worker costs a few hundred ms to start under tsx and more to warm up its compiled code, which
 * would otherwise be paid on every call.
 */
export async function runChunked<R>(job: {
  worker: URL;
  workerData: unknown;
  workers: number;
  count: number;
  chunk: number;
  local: (start: number, end: number) => R[];
  /** `first`: the thread's first chunk of this job (a reused worker still holds the state of its last job). */
  message: (start: number, end: number, first: boolean) => unknown;
}): Promise<R[]> {
  const results: R[] = new Array(job.count);
  let next = 0;
  let done = 0;
  let failed = false;
  const take = (): [number, number] | null => {
    if (next >= job.count) return null;
    const start = next;
    next += Math.max(1, Math.min(job.chunk, Math.floor((job.count - start) / ((job.workers + 1) * (IN_FLIGHT + 1)))));
    return [start, next];
  };
  const reusable = job.workerData === null;
  const threads = Array.from({ length: job.workers }, () => (reusable && idleWorker(job.worker)) || startWorker(job.worker, job.workerData));
  const detach: (() => void)[] = [];
  try {
    const finished = threads.map(
      ({ thread, ready }) =>
        new Promise<void>((resolve, reject) => {
          let inFlight = 0;
          let sent = 0;
          const feed = () => {
            const range = take();
            if (range) {
              thread.postMessage(job.message(range[0], range[1], sent++ === 0));
              inFlight++;
            } else if (inFlight === 0) resolve();
          };
          const onMessage = (msg: { ready?: true; start?: number; results?: R[] }) => {
            if (msg.results) {
              msg.results.forEach((r, i) => (results[msg.start! + i] = r));
              done += msg.results.length;
              inFlight--;
              feed();
            } else for (let k = 0; k < IN_FLIGHT; k++) feed();
          };
          const onExit = (code: number) => reject(new Error(`scoring worker exited with code ${code}`));
          thread.on("message", onMessage).on("error", reject).on("exit", onExit);
          detach.push(() => thread.off("message", onMessage).off("error", reject).off("exit", onExit));
          if (ready) for (let k = 0; k < IN_FLIGHT; k++) feed();
        }),
    );
    const all = Promise.all(finished);
    all.catch(() => {}); // awaited below; a local failure must not leave it unhandled
    for (let range = take(); range; range = take()) {
      job.local(range[0], range[1]).forEach((r, i) => (results[range![0] + i] = r));
      done += range[1] - range[0];
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    if (done !== job.count) throw new Error(`scoring workers returned ${done} of ${job.count} results`);
    return results;
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    detach.forEach((off) => off());
    await Promise.all(threads.map(({ thread }) => releaseWorker(job.worker, thread, reusable && !failed)));
  }
}

/**
 * One job on one worker thread alone, this thread free meanwhile: a parked worker on `module` (or a
 * new one) is sent `message` once ready and its `{results}` answer is the job's; it is parked again
 * after a job that went well.
 */
export async function runOnWorker<R>(module: URL, message: unknown): Promise<R[]> {
  const { thread, ready } = acquireWorker(module);
  let detach = () => {};
  let ok = false;
  try {
    const results = await new Promise<R[]>((resolve, reject) => {
      const onMessage = (msg: { ready?: true; results?: R[] }) => {
        if (msg.results) resolve(msg.results);
        else thread.postMessage(message);
      };
      const onExit = (code: number) => reject(new Error(`scoring worker exited with code ${code}`));
      thread.on("message", onMessage).on("error", reject).on("exit", onExit);
      detach = () => thread.off("message", onMessage).off("error", reject).off("exit", onExit);
      if (ready) thread.postMessage(message);
    });
    ok = true;
    return results;
  } finally {
    detach();
    await releaseWorker(module, thread, ok);
  }
}

/** A worker on `module` with no workerData: a parked one (ready) if any, else a new one (not yet ready). */
export function acquireWorker(module: URL): { thread: Worker; ready: boolean } {
  return idleWorker(module) ?? startWorker(module, null);
}

/** Parks a worker of a job that went well (`reuse`), else terminates it. */
export async function releaseWorker(module: URL, thread: Worker, reuse: boolean): Promise<void> {
  if (reuse) keepIdle(module, thread);
  else await thread.terminate();
}

/** Idle workers by module, ready for the next job. */
const idle = new Map<string, { thread: Worker; forget: () => void }[]>();

function idleWorker(module: URL): { thread: Worker; ready: boolean } | null {
  const parked = idle.get(module.href)?.pop();
  if (!parked) return null;
  parked.thread.off("error", parked.forget).off("exit", parked.forget);
  parked.thread.ref();
  return { thread: parked.thread, ready: true };
}

/** Parks a worker for reuse; one that dies while idle is forgotten. */
function keepIdle(module: URL, thread: Worker): void {
  thread.unref();
  const list = idle.get(module.href) ?? [];
  idle.set(module.href, list);
  const parked = {
    thread,
    forget: () => {
      const at = list.indexOf(parked);
      if (at >= 0) list.splice(at, 1);
    },
  };
  list.push(parked);
  thread.on("error", parked.forget).on("exit", parked.forget);
}

