import { expect, it } from "vitest";
import { benchmarkCatalogue } from "../../src/scoring/catalogue.js";

it("gives mean CORR, mean AIMC and CORR Sharpe per benchmark model", () => {
  const entries = benchmarkCatalogue([
    { model: "v1_designated", round: "r2", corr: 0.03, aimc: 0 },
    { model: "v1_designated", round: "r1", corr: 0.01, aimc: 0 },
    { model: "v0_old", round: "r1", corr: 0.02, aimc: 0.004 },
  ]);
  expect(entries.map((e) => e.model)).toEqual(["v0_old", "v1_designated"]);
  expect(entries[1]).toMatchObject({ rounds_scored: 2, mean_aimc: 0 });
  expect(entries[1].mean_corr).toBeCloseTo(0.02, 15);
  expect(entries[1].sharpe).toBeCloseTo(0.02 / 0.01, 12);
  expect(entries[0]).toMatchObject({ rounds_scored: 1, mean_corr: 0.02, mean_aimc: 0.004, sharpe: 0 });
});
