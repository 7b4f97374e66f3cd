import { describe, expect, it } from "vitest";
import { CUSTOM_FACTOR, kindFactor, SETUP_SECONDS, workSeconds } from "../../../src/service/compute/estimate.js";
import { parseParams } from "../../../src/service/compute/model-kinds.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { requires } from "../../helpers/requires.js";

const defaults = (model: Parameters<typeof parseParams>[0], params: Record<string, unknown> = {}) => parseParams(model, params);

describe("each kind's simulated runtime", () => {
  it("gives a ridge rows × features × 4 fits at the tier's speed, as it always has", () => {
    // The default event's split: 12 000 rows × 24 features on a CPU (2 000 cells/s).
    expect(workSeconds({ model: "ridge", params: defaults("ridge"), rows: 12_000, features: 24 }, "CPU")).toBe(SETUP_SECONDS + 576);
    expect(workSeconds({ model: "ridge", params: defaults("ridge", { alpha: 1000 }), rows: 401, features: 3 }, "T4")).toBe(SETUP_SECONDS + 1);
  });

  it("scales each other kind by its own params: trees × depth (or log2 leaves) × share of features, epochs × weights, a flat custom", () => {
    expect(kindFactor("random_forest", defaults("random_forest"), 24)).toBe(7.5);
    expect(kindFactor("random_forest", defaults("random_forest", { n_estimators: 200 }), 24)).toBe(15);
    expect(kindFactor("xgboost", defaults("xgboost"), 24)).toBeCloseTo(3.2, 12);
    expect(kindFactor("xgboost", defaults("xgboost", { max_depth: 8, subsample: 0.4 }), 24)).toBeCloseTo(3.2, 12);
    // 200 trees of 31 leaves (log2 31 levels) on 0.8 of the rows and 0.8 of the features, over 130.
    expect(kindFactor("lightgbm", defaults("lightgbm"), 24)).toBeCloseTo((200 * Math.log2(31) * 0.64) / 130, 12);
    expect(kindFactor("lightgbm", defaults("lightgbm", { n_estimators: 400, num_leaves: 961 }), 24)).toBeCloseTo((400 * Math.log2(961) * 0.64) / 130, 12);
    expect(kindFactor("lightgbm", defaults("lightgbm", { num_leaves: 4, subsample: 0.5, colsample_bytree: 0.5 }), 24)).toBeCloseTo((200 * 2 * 0.25) / 130, 12);
    // 24 → 32 → 1: 24·32 + 32·1 = 800 weights, 100 epochs, per feature, over 500.
    expect(kindFactor("mlp", defaults("mlp"), 24)).toBeCloseTo((100 * 800) / 24 / 500, 12);
    // 10 → 8 → 4 → 1: 80 + 32 + 4 = 116 weights.
    expect(kindFactor("mlp", defaults("mlp", { hidden_layer_sizes: [8, 4], max_iter: 50 }), 10)).toBeCloseTo((50 * 116) / 10 / 500, 12);
    expect(kindFactor("custom", { seed: null, n_estimators: 5000 }, 24)).toBe(CUSTOM_FACTOR);
    // The default random forest on the default split: 12 000 × 24 × 7.5 × 4 / 10 000 on a T4.
    expect(workSeconds({ model: "random_forest", params: defaults("random_forest"), rows: 12_000, features: 24 }, "T4")).toBe(SETUP_SECONDS + 864);
  });

  // A dry run, like a launch, checks that the training Python imports each kind.
  requires("python", "training").it("prices each kind's job by its own formula in a dry run", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const runtime = async (body: Record<string, unknown>) =>
      ((await h.service.train("key-ann-00000001", { features: "all", gpu: "CPU", dry_run: true, ...body })) as { estimated_runtime_seconds: number }).estimated_runtime_seconds;
    // The small event: 400 train rows × 10 features, 4 fits, 2 000 cells/s on a CPU.
    const cells = (400 * 10 * 4) / 2000;
    expect(await runtime({ model: "ridge" })).toBe(60 + cells);
    expect(await runtime({ model: "random_forest", params: { n_estimators: 80, max_depth: 4, max_features: 0.5 } })).toBe(60 + cells * 4);
    expect(await runtime({ model: "xgboost", params: { n_estimators: 100, max_depth: 4, subsample: 0.5, colsample_bytree: 0.8 } })).toBe(60 + cells * 1);
    expect(await runtime({ model: "custom", custom_model_fn: "def build_model(params):\n    return None\n" })).toBe(60 + cells * CUSTOM_FACTOR);
  });
});
