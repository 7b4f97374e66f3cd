import { expect } from "vitest";
import { eventHarness } from "../../helpers/event-harness.js";
import { usingInterpreter } from "../../helpers/python.js";
import { requires } from "../../helpers/requires.js";

const ANN = "key-ann-00000001";
/** Debian's interpreter (the sandbox runs the chosen one, named as chosen): Debian does not package LightGBM. */
const DEBIAN_PYTHON = "/usr/bin/python3";

usingInterpreter(DEBIAN_PYTHON);

requires("python", "training").describe("lightgbm where the training interpreter cannot import it", () => {
  for (const isolation of ["sandbox", "trusted"] as const) {
    requires("python", "training", ...(isolation === "sandbox" ? (["sandbox"] as const) : [])).it(`is refused (400) saying so, a dry run too (${isolation})`, async () => {
      const h = eventHarness({ compute: { budget_usd: "5" } });
      h.ctx.modelIsolation = isolation;
      const message =
        `model 'lightgbm' is not trained here: the training interpreter ${DEBIAN_PYTHON} cannot import lightgbm ` +
        "(ModuleNotFoundError: No module named 'lightgbm'). This deployment trains xgboost, ridge, mlp, random_forest, custom.";
      await expect(h.service.train(ANN, { model: "lightgbm" })).rejects.toMatchObject({ status: 400, code: "train_model_unsupported", message });
      await expect(h.service.train(ANN, { model: "lightgbm", dry_run: true })).rejects.toMatchObject({ status: 400, message });
      // Nothing was held.
      expect(await h.service.computeCredits(ANN)).toMatchObject({ reserved_cents: 0 });
    });
  }
});
