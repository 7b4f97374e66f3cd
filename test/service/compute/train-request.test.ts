import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTrainRequest } from "../../../src/service/compute/train-request.js";

const data = { features: ["f_d", "f_b", "f_a", "f_c", "f_e"], target: "target_everest" };
const refusal = (body: Record<string, unknown>) => {
  try {
    parseTrainRequest(body, data);
  } catch (e) {
    return e as { status: number; code: string; message: string };
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
};

describe("parseTrainRequest", () => {
  it("fills the defaults: features small (the alphabetical first quarter), the graded target, futures, T4, max_hours 1", () => {
    expect(parseTrainRequest({ model: "ridge" }, data)).toEqual({
      model: "ridge",
      features: ["f_a", "f_b"],
      feature_set: "small",
      target: "target_everest",
      universe: "futures",
      gpu: "T4",
      params: { alpha: 1, seed: null },
      max_hours: 1,
      dry_run: false,
    });
    expect(parseTrainRequest({ model: "ridge", features: "all", gpu: "CPU", params: { seed: 7, alpha: 0 }, max_hours: 4 }, data)).toMatchObject({
      features: data.features,
      gpu: "CPU",
      params: { seed: 7, alpha: 0 },
      max_hours: 4,
    });
  });

  it("refuses a top-level seed with 400, saying it belongs in params", () => {
    expect(refusal({ model: "ridge", seed: 1 })).toMatchObject({ status: 400, code: "train_seed_top_level", message: expect.stringContaining("params.seed") });
  });

  it("refuses unknown top-level fields with 400 naming them", () => {
    expect(refusal({ model: "ridge", sample_pct: 10, foo: 1 })).toMatchObject({
      status: 400,
      code: "train_unknown_fields",
      message: expect.stringContaining("sample_pct, foo"),
    });
    expect(refusal({ model: "ridge", train_filter: {} })).toMatchObject({ status: 400, message: expect.stringContaining("train_filter") });
  });

  it("reads every model name the service knows (whether lightgbm trains here is the training interpreter's to say), refusing others by name", () => {
    expect(parseTrainRequest({ model: "lightgbm" }, data).params).toEqual({
      seed: null,
      n_estimators: 200,
      num_leaves: 31,
      learning_rate: 0.05,
      min_child_samples: 20,
      subsample: 0.8,
      colsample_bytree: 0.8,
    });
    expect(refusal({ model: "lightgbm", params: { num_leaves: 1 } }).message).toMatch(/^params\.num_leaves: expected an integer at least 2 and at most 1024 \(got 1\)/);
    expect(refusal({ model: "catboost" })).toMatchObject({ status: 400, message: expect.stringMatching(/^model: .*catboost/) });
    expect(refusal({})).toMatchObject({ status: 400, message: expect.stringMatching(/^model: required/) });
  });

  it("fills each kind's hyperparameters, refusing unknown and out-of-range ones by name", () => {
    expect(parseTrainRequest({ model: "random_forest", params: { seed: 4, n_estimators: 10 } }, data).params).toEqual({ seed: 4, n_estimators: 10, max_depth: 6, min_samples_leaf: 20, max_features: 0.5 });
    expect(parseTrainRequest({ model: "mlp" }, data).params).toMatchObject({ seed: null, hidden_layer_sizes: [32] });
    expect(parseTrainRequest({ model: "custom", custom_model_fn: "def build_model(p): pass", params: { depth: [1, 2] } }, data).params).toEqual({ depth: [1, 2], seed: null });
    expect(refusal({ model: "xgboost", params: { alpha: 1 } }).message).toMatch(/^params: unknown xgboost parameter alpha; known: seed, n_estimators/);
    expect(refusal({ model: "random_forest", params: { max_features: 0 } }).message).toMatch(/^params\.max_features: expected a number above 0 and at most 1/);
    expect(refusal({ model: "mlp", params: { hidden_layer_sizes: [8, 0] } }).message).toMatch(/^params\.hidden_layer_sizes: expected 1 to 4 integers/);
  });

  it("reads train_filter: a cutoff label and an exped sample fraction, each bad value named", () => {
    const filter = { exped: { cutoff_lt: "exped_0006" }, sample: { fraction: 0.5, unit: "exped" } };
    expect(parseTrainRequest({ model: "ridge", train_filter: filter }, data).train_filter).toEqual(filter);
    expect(refusal({ model: "ridge", train_filter: { sample: { fraction: 0 } } }).message).toMatch(/^train_filter\.sample\.fraction: /);
    expect(refusal({ model: "ridge", train_filter: { sample: { fraction: 0.5, unit: "row" } } }).message).toMatch(/^train_filter\.sample\.unit: /);
    expect(refusal({ model: "ridge", train_filter: { exped: { before: "x" } } }).message).toMatch(/^train_filter\.exped: unknown field before/);
  });

  it("names the bad field and value", () => {
    expect(refusal({ model: "ridge", gpu: "H100" }).message).toMatch(/^gpu: .*"H100"/);
    expect(refusal({ model: "ridge", max_hours: 4.5 }).message).toMatch(/^max_hours: .*4\.5/);
    expect(refusal({ model: "ridge", features: ["f_a", "nope"] }).message).toBe("features: unknown feature nope");
    expect(refusal({ model: "ridge", features: ["f_a", "f_a"] }).message).toBe("features: f_a is listed twice");
    expect(refusal({ model: "ridge", universe: "crypto" }).message).toMatch(/^universe: /);
    expect(refusal({ model: "ridge", target: "target_k2" }).message).toMatch(/^target: .*target_everest/);
    expect(refusal({ model: "ridge", params: { seed: 1.5 } }).message).toMatch(/^params\.seed: /);
    expect(refusal({ model: "ridge", params: { depth: 3 } }).message).toMatch(/^params: unknown ridge parameter depth/);
    expect(refusal({ model: "ridge", dry_run: "yes" }).message).toMatch(/^dry_run: /);
  });

  it("takes any max_hours from one second (1/3600 h) to 4 h and refuses every other number", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true }), fc.double({ min: 0, max: 2 / 3600, noNaN: true })), (h) => {
        const ok = h * 3600 >= 1 && h <= 4;
        if (ok) expect(parseTrainRequest({ model: "ridge", max_hours: h }, data).max_hours).toBe(h);
        else expect(refusal({ model: "ridge", max_hours: h }).status).toBe(400);
      }),
    );
  });
});
