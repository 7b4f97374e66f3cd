import { resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startRayHead, type RayHead } from "./ray-head.js";

/**
 * A Ray head of `cpus` CPUs on 127.0.0.1 (the project venv's ray) for the enclosing describe
 * block: started before its tests, stopped after them. The getter throws when it did not start.
 */
export function useRayHead(cpus: number): () => RayHead {
  let head: RayHead | undefined;
  beforeAll(async () => {
    head = await startRayHead(resolve(".venv/bin/ray"), cpus);
  }, 200_000);
  afterAll(() => head?.stop());
  return () => {
    if (!head) throw new Error("no Ray head");
    return head;
  };
}
