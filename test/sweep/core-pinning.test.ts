import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allowedCpus, pinnedCommand, workerCpus } from "../../sim/sweep/core-pinning.js";

describe("pinning a local pool's workers to CPUs", () => {
  it("reads the CPUs a process may use from its status", () => {
    expect(allowedCpus("Name:\tnode\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t1\n")).toEqual([0, 1]);
    expect(allowedCpus("Cpus_allowed_list:\t0,2-4,7\n")).toEqual([0, 2, 3, 4, 7]);
    expect(allowedCpus("Cpus_allowed_list:\t5\n")).toEqual([5]);
    expect(allowedCpus("Name:\tnode\n")).toBeNull();
    expect(allowedCpus("Cpus_allowed_list:\t0-x\n")).toBeNull();
  });

  it("pins only a pool with a worker for every CPU it may use, and only where taskset runs", () => {
    const always = () => true;
    expect(workerCpus(2, [0, 1], always)).toEqual([0, 1]);
    expect(workerCpus(2, [2, 5], always)).toEqual([2, 5]);
    expect(workerCpus(1, [0, 1], always)).toBeNull();
    expect(workerCpus(3, [0, 1], always)).toBeNull();
    expect(workerCpus(2, null, always)).toBeNull();
    expect(workerCpus(2, [0, 1], () => false)).toBeNull();
  });

  it("starts a command on the CPU it is given, and as it is without one", () => {
    const cpus = allowedCpus(readFileSync("/proc/self/status", "utf8"));
    expect(cpus).not.toBeNull();
    const last = cpus![cpus!.length - 1];
    const [file, args] = pinnedCommand(last, "/bin/sh", ["-c", "grep Cpus_allowed_list /proc/self/status"]);
    const pinned = spawnSync(file, args, { encoding: "utf8" });
    expect(pinned.status).toBe(0);
    expect(allowedCpus(pinned.stdout)).toEqual([last]);
    expect(pinnedCommand(undefined, "/bin/sh", ["-c", "true"])).toEqual(["/bin/sh", ["-c", "true"]]);
  });
});
