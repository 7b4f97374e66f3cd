/**
 * The sandbox's start cost: the same sandboxed `python -c pass`, once through the launcher that
 * seals it (seal.py: join the sandbox's cgroups, close inherited descriptors, exec) and once
 * straight into `nice … bwrap` as before the launcher, alternating, medians; and the cost of a
 * sandbox's cgroups (made and removed) and of its scratch (a tmpfs mounted and unmounted).
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { DEFAULT_LIMITS, launchSandbox } from "../../src/participant/sandbox.js";
import { boundsMode } from "../../src/participant/sandbox-group.js";
import { sandboxPython } from "../../src/participant/sandbox-python.js";
import { makeWorkDir, removeWorkDir, scratchBound } from "../../src/participant/work-dir.js";
import { median, medianMs, report } from "./measure.js";

const RUNS = 15;

export async function run(): Promise<void> {
  const python = await sandboxPython();
  if (!python.ok) throw new Error(python.error);
  const { dir, scratch } = await makeWorkDir(DEFAULT_LIMITS.scratch_bytes);
  const sealed: number[] = [];
  const bare: number[] = [];
  const groups: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const started = launchSandbox({ python, scratch, files: {}, args: ["-S", "-c", "pass"], keep: 3 }, DEFAULT_LIMITS);
      if (!started.ok) throw new Error(started.error);
      const t1 = performance.now();
      const { command } = started.launch;
      const niceAt = command.args.indexOf("nice");
      for (const [kind, file, args] of i % 2 === 0 ? ([["sealed", command.file, command.args], ["bare", "nice", command.args.slice(niceAt + 1)]] as const) : ([["bare", "nice", command.args.slice(niceAt + 1)], ["sealed", command.file, command.args]] as const)) {
        const s = performance.now();
        const ran = spawnSync(file, args, { env: command.env, cwd: command.cwd, stdio: "ignore" });
        if (ran.status !== 0) throw new Error(`${kind}: exit ${ran.status}`);
        (kind === "sealed" ? sealed : bare).push(performance.now() - s);
      }
      const t2 = performance.now();
      await started.launch.release();
      groups.push(t1 - t0 + (performance.now() - t2));
    }
  } finally {
    await removeWorkDir(dir);
  }
  const scratchCost = await medianMs(RUNS, async () => removeWorkDir((await makeWorkDir(DEFAULT_LIMITS.scratch_bytes)).dir));
  report("sandbox start (python -S -c pass, sandboxed)", {
    bounds: boundsMode().kind,
    scratch: scratchBound()?.kind ?? "-",
    sealed: `${median(sealed).toFixed(1)} ms`,
    bare: `${median(bare).toFixed(1)} ms`,
    launcher: `${(median(sealed) - median(bare)).toFixed(1)} ms`,
    cgroups: `${median(groups).toFixed(1)} ms (made + removed)`,
    "scratch dir": `${scratchCost.median.toFixed(1)} ms (made + removed)`,
  });
}
