import { describe, expect, it } from "vitest";
import { trainingIsolation } from "../../../src/service/compute/training-python.js";
import { eventHarness } from "../../helpers/event-harness.js";

describe("how a job's fit is isolated", () => {
  it("runs a built-in kind as the deployment runs model files, and custom_model_fn always in the sandbox", async () => {
    const h = eventHarness();
    for (const isolation of ["sandbox", "trusted"] as const) {
      h.ctx.modelIsolation = isolation;
      for (const kind of ["random_forest", "mlp", "xgboost", "lightgbm"] as const) expect(await trainingIsolation(h.ctx, kind)).toBe(isolation);
      expect(await trainingIsolation(h.ctx, "custom")).toBe("sandbox");
    }
  });
});
