import { Worker, type ResourceLimits } from "node:worker_threads";

/** A worker module beside `base` (the caller's import.meta.url): `name`.ts in the sources, `name`.js in the compiled package. */
export function workerModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);
}

/**
 * Starts a worker on a module. A TypeScript one registers tsx's loader before importing it, which
 * works the same under tsx, `node --import tsx` and vitest; a compiled one starts as it is.
 */
export function startWorker(module: URL, workerData: unknown, resourceLimits?: ResourceLimits): { thread: Worker; ready: boolean } {
  if (!module.pathname.endsWith(".ts")) return { thread: new Worker(module, { workerData, resourceLimits }), ready: false };
  const loader = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); });`;
  return { thread: new Worker(boot, { eval: true, workerData, resourceLimits }), ready: false };
}
