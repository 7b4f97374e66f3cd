/**
 * Wall time of one hosted training job of each kind on the default event's train split (all
 * features, default hyperparameters): the ridge in TypeScript, the others in the sandbox,
 * measured from the job's launch to its completion (the simulated clock moved past its end).
 */
import { performance } from "node:perf_hooks";
import { advanceRounds } from "../../src/service/cadence-steps.js";
import type { JobView } from "../../src/service/compute/job-view.js";
import { loadScenario } from "../../sim/scenario.js";
import { harness } from "../helpers/service-harness.js";
import { report } from "./measure.js";

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
  custom: { model: "custom", custom_model_fn: CUSTOM },
};

export async function run(): Promise<void> {
  const scenario = loadScenario("scenarios/default-event.json");
  const base = { ...scenario, event: { ...scenario.event!, compute: { budget_usd: "100", rate_card_usd_per_hr: { CPU: "0.10", T4: "0.50", A10G: "1.10", A100: "1.79" } } } };
  const lines: Record<string, string> = {};
  for (const [kind, body] of Object.entries(KINDS)) {
    const h = harness(base, 0);
    const agent = base.agents.find((a) => a.scope === "event")!;
    const start = performance.now();
    const job = (await h.service.train(agent.key, { ...body, features: "all", params: { ...(body.params as object), seed: 1 } })) as JobView;
    h.clock.set(h.clock.now() + (job.runtime_seconds + 2) * 1000);
    await advanceRounds(h.ctx);
    const done = await h.service.getJob(agent.key, job.job_id);
    const ms = performance.now() - start;
    lines[kind] = `${(ms / 1000).toFixed(2)} s wall  (${done.status}, ${h.world.dataset.train.ids.length} rows × ${done.feature_manifest.features.length} features, cv corr ${done.metrics?.cv.corr.mean?.toFixed(4) ?? "-"})`;
  }
  report("hosted training, one job per kind on the default event's train split", lines);
}
