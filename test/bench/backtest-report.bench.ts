/**
 * The report after the walk: `backtest` of examples/agent.py over the default tournament (30
 * expeds × 200 rows, 24 features, beside v1_designated), timed from the walk's last settled exped
 * (its last progress call) to the text report, the JSON and the HTML page all made: the
 * diagnostics (FN CORR, TB CORR, exposures, series statistics) and the rendering. Goal: under 1 s.
 */
import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { backtest } from "../../sim/backtest/backtest.js";
import { deploymentOf } from "../../sim/deployment.js";
import { loadScenario } from "../../sim/scenario.js";
import { renderBacktestHtml } from "../../src/report/backtest-html.js";
import { formatBacktestText } from "../../src/report/backtest-text.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { median, report } from "./measure.js";

const SCENARIO = "scenarios/default-tournament.json";
const RUNS = 3;

export async function run(): Promise<void> {
  const scenario = loadScenario(SCENARIO);
  const world = buildWorld(deploymentOf(scenario));
  for (const against of [[], ["ridge", "random"]]) {
    const after: number[] = [];
    const summaries: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let walked = 0;
      const { report: r } = await backtest({
        strategy: resolve("examples/agent.py"),
        against,
        scenario,
        scenarioName: SCENARIO,
        world,
        onProgress: ({ settled, rounds }) => {
          if (settled === rounds) walked = performance.now();
        },
      });
      summaries.push(performance.now() - walked);
      formatBacktestText(r);
      JSON.stringify(r);
      renderBacktestHtml(r);
      after.push(performance.now() - walked);
    }
    report(`backtest report of examples/agent.py${against.length ? ` against ${against.join(", ")}` : ""}`, {
      workload: `${world.dataset.validation.ids.length} validation rows, ${world.dataset.features.length} features, ${2 + against.length} strategies`,
      "to summaries": `${median(summaries).toFixed(0)} ms after the walk's last settlement`,
      "to all three": `${median(after).toFixed(0)} ms (text, JSON, HTML; goal < 1000 ms)`,
      runs: after.map((ms) => ms.toFixed(0)).join(" "),
    });
  }
}
