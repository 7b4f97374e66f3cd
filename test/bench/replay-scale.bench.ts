/**
 * Replay at scale: a generated tournament of 60 rounds × 100 built-in agents (ridge, random and
 * benchmark_copier in turn) × 2,000 instruments per round, replayed in process in memory, the world
 * built beforehand. Prints the workload (steps, events, submissions scored), the wall time and the
 * CPU time the process spent (all threads, so settlement's worker counts: steadier than wall time on
 * a shared machine), each the median of 3 runs (`REPLAY_RUNS=1` for one) with every run listed,
 * time per step, peak RSS and the event log's digest. Goal: at most 8 s wall a replay.
 *
 * Also, per run, the main thread's own CPU time (Linux: /proc/self/task) and how long its event
 * loop sat waiting (for the settlement worker; the store is in memory, so never for a disk): on a
 * quiet machine the wall time is about their sum, whatever else loads the machine meanwhile.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario, type RunResult } from "../../sim/engine.js";
import { parseScenario, type Scenario } from "../../sim/scenario.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { median, medianMs, peakRssMb, report } from "./measure.js";

const ROUNDS = 60;
const AGENTS = 100;
const UNIVERSE = 2_000;
const STRATEGIES = ["ridge", "random", "benchmark_copier"] as const;

export function scaleScenario(): Scenario {
  return parseScenario({
    name: "replay-scale",
    seed: 60100,
    kind: "tournament",
    dataset: { prefix: "scale", universe_size: UNIVERSE },
    calendar: { start: "2026-01-05", n_rounds: ROUNDS, resolve_after_rounds: 4 },
    agents: Array.from({ length: AGENTS }, (_, i) => ({
      name: `agent-${i}`,
      key: `key-agent-${String(i).padStart(4, "0")}`,
      strategy: STRATEGIES[i % STRATEGIES.length],
    })),
  });
}

export async function run(): Promise<void> {
  const scenario = scaleScenario();
  const world = buildWorld(deploymentOf(scenario));
  const runs = Number(process.env.REPLAY_RUNS ?? 3);
  let last: RunResult | undefined;
  const cpu: number[] = [];
  const mainCpu: number[] = [];
  const waited: number[] = [];
  const { median: wall, all } = await medianMs(runs, async () => {
    const start = process.cpuUsage();
    const mainStart = mainThreadCpuMs();
    const loopStart = performance.eventLoopUtilization();
    last = await runScenario(scenario, { world });
    waited.push(performance.eventLoopUtilization(loopStart).idle);
    const mainEnd = mainThreadCpuMs();
    if (mainStart !== null && mainEnd !== null) mainCpu.push(mainEnd - mainStart);
    const used = process.cpuUsage(start);
    cpu.push((used.user + used.system) / 1e3);
  });
  const result = last as RunResult;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  report(`replay at scale (${ROUNDS} rounds × ${AGENTS} agents × ${UNIVERSE} instruments, in memory)`, {
    workload: `${ROUNDS} rounds, ${AGENTS} agents (${STRATEGIES.join(", ")}), ${UNIVERSE} instruments a round`,
    steps: result.steps,
    events: result.events,
    settled: `${result.board.rounds_settled} rounds`,
    "wall median": `${seconds(wall)} s (goal ≤ 8 s)${runs === 1 ? ", one run only" : ` of ${runs}`}`,
    "wall runs": all.map(seconds).join(" ") + " s",
    "CPU median": `${seconds(median(cpu))} s (all threads)`,
    "CPU runs": cpu.map(seconds).join(" ") + " s",
    "main thread": mainCpu.length > 0 ? `${seconds(median(mainCpu))} s CPU (runs ${mainCpu.map(seconds).join(" ")})` : "CPU not readable here",
    "main waited": `${seconds(median(waited))} s (runs ${waited.map(seconds).join(" ")})`,
    "per step": `${((wall / result.steps) * 1000).toFixed(0)} µs wall`,
    "peak RSS": `${peakRssMb().toFixed(0)} MB`,
    digest: result.digest,
  });
}

const TASK_STAT = `/proc/self/task/${process.pid}/stat`;
const CLOCK_TICKS = existsSync(TASK_STAT) ? Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) : 0;

/** The main thread's user + system CPU time in ms (its task's utime and stime), or null off Linux. */
function mainThreadCpuMs(): number | null {
  if (CLOCK_TICKS === 0) return null;
  const fields = readFileSync(TASK_STAT, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1000;
}
