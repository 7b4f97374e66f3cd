/**
 * The backtesting workbench: `backtest` of examples/agent.py (Python, one persistent worker) and of
 * examples/strategy.ts over the default tournament's validation split (30 expeds × 200 rows, beside
 * v1_designated), after start-up; and a Python strategy's per-round cost after warm-up: one
 * predict of the default tournament's live split through the worker, sandboxed where the machine
 * allows it. Goals: a backtest under 3 s; a round at most 30 ms (a one-shot predict run took ≈ 330 ms).
 */
import { resolve } from "node:path";
import { backtest } from "../../sim/backtest/backtest.js";
import { deploymentOf } from "../../sim/deployment.js";
import { loadScenario } from "../../sim/scenario.js";
import { localIsolation } from "../../src/participant/isolation.js";
import { startPythonWorker } from "../../src/participant/python-worker.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const SCENARIO = "scenarios/default-tournament.json";

export async function run(): Promise<void> {
  const scenario = loadScenario(SCENARIO);
  const world = buildWorld(deploymentOf(scenario));
  for (const file of ["examples/agent.py", "examples/strategy.ts"]) {
    const { median, all } = await medianMs(3, () => backtest({ strategy: resolve(file), scenario, scenarioName: SCENARIO, world }));
    report(`backtest ${file}`, {
      workload: `${world.dataset.validation.ids.length} validation rows in ${new Set(world.dataset.validation.exped).size} expeds, beside v1_designated; world built beforehand`,
      median: `${(median / 1000).toFixed(3)} s (goal < 3 s after start-up)`,
      runs: all.map((ms) => (ms / 1000).toFixed(3)).join(" "),
      "peak RSS": `${peakRssMb().toFixed(0)} MB`,
    });
  }

  const isolation = await localIsolation();
  const started = await startPythonWorker({ source: { kind: "module", path: resolve("examples/agent.py"), params: {} }, isolation, label: "agent.py" });
  if (!started.ok) throw new Error(started.error);
  const { worker } = started;
  try {
    const fit = await worker.fit(world.dataset.train, 600);
    if (!fit.ok) throw new Error(fit.error);
    const rounds = world.dataset.rounds;
    for (const r of rounds.slice(0, 3)) await worker.predict(r.frame, r.benchmark, 60); // warm-up
    let k = 0;
    const { median, all } = await medianMs(rounds.length, async () => {
      const r = rounds[k++ % rounds.length];
      const answer = await worker.predict(r.frame, r.benchmark, 60);
      if (!answer.ok) throw new Error(answer.error);
    });
    report(`Python strategy, one round (examples/agent.py, ${isolation})`, {
      workload: `predict on a live split of ${rounds[0].frame.ids.length} rows × ${world.dataset.features.length} features, after fit and 3 warm-up rounds`,
      median: `${median.toFixed(1)} ms (goal ≤ 30 ms)`,
      runs: all.map((ms) => ms.toFixed(1)).join(" "),
      "peak RSS": `${peakRssMb().toFixed(0)} MB (this process)`,
    });
  } finally {
    await worker.close();
  }
}
