/**
 * Wall time of one hosted training job of each kind on the default event's train split (all
 * features, default hyperparameters): the ridge in TypeScript, the others in the sandbox (lightgbm
 * where the training Python imports it, else its refusal),
 * measured from the job's launch to its completion (the simulated clock moved past its end),
 * median of BENCH_RUNS runs (3). Wall time only: the sandboxed Python's CPU time does not show in
 * this process's children's account (measured: 0.1 s of it for a 7 s forest), so none is reported.
 */
import { performance } from "node:perf_hooks";
import { advanceRounds } from "../../src/service/cadence/cadence-steps.js";
import type { JobView } from "../../src/service/compute/job-view.js";
import { loadScenario } from "../../sim/scenario.js";
import { harness } from "../helpers/service-harness.js";
import { peakRssMb, report } from "./measure.js";

const CUSTOM = `
from sklearn.linear_model import Ridge


def build_model(params):
    return Ridge(alpha=params.get("alpha", 10.0))
`;

const KINDS: Record<string, Record<string, unknown>> = {
  ridge: { model: "ridge" },
  random_forest: { model: "random_forest" },
  mlp: { model: "mlp" },
  xgboost: { model: "xgboost" },
  // Where the training Python imports it (BASECAMP_PYTHON a venv holding it); else its refusal is reported.
  lightgbm: { model: "lightgbm" },
  custom: { model: "custom", custom_model_fn: CUSTOM },
};

/** Runs of each kind; the median is reported (BENCH_RUNS to change it). */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const scenario = loadScenario("scenarios/default-event.json");
  const base = { ...scenario, event: { ...scenario.event!, compute: { budget_usd: "100", rate_card_usd_per_hr: { CPU: "0.10", T4: "0.50", A10G: "1.10", A100: "1.79" } } } };
  const agent = base.agents.find((a) => a.scope === "event")!;
  const lines: Record<string, string> = {};
  let workload = "";
  for (const [kind, body] of Object.entries(KINDS)) {
    const walls: number[] = [];
    let done: JobView | undefined;
    for (let i = 0; i < RUNS; i++) {
      const h = harness(base, 0);
      const start = performance.now();
      const launched = await h.service.train(agent.key, { ...body, features: "all", params: { ...(body.params as object), seed: 1 } }).catch((e: Error) => e);
      if (launched instanceof Error) {
        lines[kind] = `refused: ${launched.message}`;
        break;
      }
      const job = launched as JobView;
      h.clock.set(h.clock.now() + (job.runtime_seconds + 2) * 1000);
      await advanceRounds(h.ctx);
      done = await h.service.getJob(agent.key, job.job_id);
      walls.push((performance.now() - start) / 1000);
      workload = `${h.world.dataset.train.ids.length} rows × ${done.feature_manifest.features.length} features`;
    }
    if (done === undefined) continue;
    const d = done;
    lines[kind] =
      `median ${median(walls).toFixed(2)} s wall  (runs ${walls.map((w) => w.toFixed(2)).join(", ")}; ` +
      `${d.status}, simulated runtime ${d.runtime_seconds} s on ${d.gpu}, cv corr ${d.metrics?.cv.corr.mean?.toFixed(4) ?? "-"})`;
  }
  lines["peak RSS"] = `${peakRssMb().toFixed(0)} MB (this process; the sandboxed runs are children)`;
  report(`hosted training, ${RUNS} jobs per kind on the default event's train split (${workload}, default params)`, lines);
}
