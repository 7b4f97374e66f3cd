import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runShell, SHELL_RUNNER } from "../../src/participant/run-shell.js";
import { boundsMode, RLIMIT_PROCESSES, wholeRlimits } from "../../src/participant/sandbox-group.js";
import { makeWorkDir, removeWorkDir } from "../../src/participant/work-dir.js";
import { requires } from "../helpers/requires.js";

const MIB = 1024 ** 2;
/** A parent that forks two children; each of the three touches 200 MiB, 600 MiB together. */
const THREE = `import os, sys, time
def take():
    block = bytearray(200 * 1024 * 1024)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return block
children = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        take()
        time.sleep(5)
        os._exit(0)
    children.append(pid)
try:
    mine = take()
    print("parent took its share", flush=True)
except MemoryError:
    print("parent: MemoryError", flush=True)
for pid in children:
    _, status = os.waitpid(pid, 0)
    print("child", "killed by signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "exit %d" % os.WEXITSTATUS(status), flush=True)
`;

let dir = "";
let scratch = "";
let runner = "";
beforeAll(async () => {
  ({ dir, scratch } = await makeWorkDir(64 * MIB));
  runner = join(dir, "machine_command.py");
  copyFileSync(SHELL_RUNNER, runner);
  writeFileSync(join(scratch, "three.py"), THREE);
});
afterAll(() => removeWorkDir(dir));

requires("sandbox").it("stops three processes that together pass the sandbox's memory, at the sandbox's total, saying so", async () => {
  const limits = { memory_bytes: 256 * MIB };
  const ran = await runShell({ workspace: scratch, runner, command: "python3 three.py", timeout_seconds: 60, max_output_bytes: 65536, limits });
  const output = ran.output.toString("utf8");
  // One of the three can hold its 200 MiB inside 256 MiB, never all three.
  expect(output).not.toMatch(/parent took its share\nchild exit 0\nchild exit 0/);
  if (boundsMode().kind === "cgroup") {
    expect(output).toContain("basecamp: a process of this command was stopped at the sandbox's memory limit (256 MiB for the whole sandbox, all its processes together)");
  } else {
    expect(output).toContain("MemoryError");
  }
}, 90_000);

it("without a cgroup, gives each of at most RLIMIT_PROCESSES processes a share of the total, so their sum cannot pass it; with one, no per-process share", () => {
  const whole = { memory_bytes: 8 * 1024 ** 3 + 5, processes: 64, cpus: 1 };
  const r = wholeRlimits(whole, { kind: "rlimits", why: "test" });
  expect(r.processes).toBe(RLIMIT_PROCESSES);
  expect(r.memory_bytes! * r.processes!).toBeLessThanOrEqual(whole.memory_bytes);
  expect(wholeRlimits({ ...whole, processes: 2 }, { kind: "rlimits", why: "test" })).toEqual({ memory_bytes: Math.floor(whole.memory_bytes / 2), processes: 2 });
  expect(wholeRlimits(whole, { kind: "cgroup", roots: { memory: "/m", pids: "/p", cpu: null } })).toEqual({});
});
