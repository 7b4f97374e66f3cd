import { describe, expect, it } from "vitest";
import { benchmarkFileName, expedLabel, featureNames, splits } from "../../src/data/schema.js";

describe("schema", () => {
  it("names benchmark files per split", () => {
    expect(splits.map((s) => benchmarkFileName("bc", s))).toEqual([
      "bc_train_benchmark_models.parquet",
      "bc_validation_benchmark_models.parquet",
      "bc_live_benchmark_models.parquet",
    ]);
  });

  it("pads exped labels so string order is numeric order, and refuses labels it cannot pad", () => {
    const labels = [1, 9, 10, 99, 100, 999, 1000, 9999].map(expedLabel);
    expect(labels[0]).toBe("exped_0001");
    expect([...labels].sort()).toEqual(labels);
    expect(() => expedLabel(0)).toThrow("exped number 0 is outside 1..9999");
    expect(() => expedLabel(10000)).toThrow(/outside/);
  });

  it("gives unique feature names for any count, word pairs first", () => {
    const names = featureNames(400);
    expect(new Set(names).size).toBe(400);
    expect(names.slice(0, 144).every((n) => /^feature_[a-z]+_[a-z]+$/.test(n))).toBe(true);
    expect(names[144]).toMatch(/^feature_[a-z]+_[a-z]+_1$/);
    expect(featureNames(24)).toEqual(names.slice(0, 24));
  });
});
