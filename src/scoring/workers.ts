import { Worker } from "node:worker_threads";

/**
 * Runs `count` jobs in chunks over `workers` worker threads and this thread at once. A worker
 * module gets `workerData`, posts `{ready: true}` once set up, then answers each chunk message
 * with `{start, results}`. Chunks are handed out on demand, so slow starters get fewer.
 */
export async function runChunked<R>(job: {
  worker: URL;
  workerData: unknown;
  workers: number;
  count: number;
  chunk: number;
  local: (start: number, end: number) => R[];
  message: (start: number, end: number) => unknown;
}): Promise<R[]> {
  const results: R[] = new Array(job.count);
  let next = 0;
  let done = 0;
  const take = (): [number, number] | null => {
    if (next >= job.count) return null;
    const start = next;
    next = Math.min(job.count, next + job.chunk);
    return [start, next];
  };
  const threads = Array.from({ length: job.workers }, () => startTsWorker(job.worker, job.workerData));
  try {
    const finished = threads.map(
      (thread) =>
        new Promise<void>((resolve, reject) => {
          const feed = () => {
            const range = take();
            if (range) thread.postMessage(job.message(range[0], range[1]));
            else resolve();
          };
          thread.on("message", (msg: { ready?: true; start?: number; results?: R[] }) => {
            if (msg.results) {
              msg.results.forEach((r, i) => (results[msg.start! + i] = r));
              done += msg.results.length;
            }
            feed();
          });
          thread.on("error", reject);
          thread.on("exit", (code) => reject(new Error(`scoring worker exited with code ${code}`)));
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
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}

/**
 * Starts a worker on a TypeScript module: the worker registers tsx's loader before importing it,
 * which works the same under tsx, `node --import tsx` and vitest.
 */
function startTsWorker(module: URL, workerData: unknown): Worker {
  const loader = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
