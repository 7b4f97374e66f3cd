import { describe, expect, it } from "vitest";
import { eventLines } from "../../../src/store/event-log.js";
import { checkHostedKind, trained } from "../../helpers/hosted-kind.js";
import { requires } from "../../helpers/requires.js";

/** A custom model: a ridge on tanh-squashed features, its class defined in the source (so it pickles by value). */
export const CUSTOM_SOURCE = `
import numpy as np
from sklearn.linear_model import Ridge


class SquashedRidge:
    def __init__(self, alpha):
        self.inner = Ridge(alpha=alpha)

    def fit(self, x, y):
        self.inner.fit(np.tanh(x), y)
        return self

    def predict(self, x):
        return self.inner.predict(np.tanh(x))


def build_model(params):
    return SquashedRidge(params.get("alpha", 10.0))
`;

/**
 * Each kind hosted compute trains on Debian's Python (the ridge in TypeScript, the others in the
 * sandbox), with parameters that keep the small event's job quick. lightgbm, which Debian does not
 * package, is tested under the project venv: lightgbm.test.ts.
 */
const KINDS: [string, Record<string, unknown>][] = [
  ["ridge", { model: "ridge", params: { seed: 7, alpha: 2 } }],
  ["random_forest", { model: "random_forest", params: { seed: 7, n_estimators: 20, max_depth: 4 } }],
  ["mlp", { model: "mlp", params: { seed: 7, hidden_layer_sizes: [8], max_iter: 50 } }],
  ["xgboost", { model: "xgboost", params: { seed: 7, n_estimators: 30, max_depth: 3 } }],
  ["custom", { model: "custom", custom_model_fn: CUSTOM_SOURCE, params: { seed: 7, alpha: 5 } }],
];

requires("python", "sandbox", "training").describe("hosted training of every kind", () => {
  describe.each(KINDS)("hosted training of %s", (kind, body) => {
    it("completes with CV metrics the scoring engine gives for the fold predictions, and a model the practice board scores", async () => {
      await checkHostedKind(kind, body);
    });
  });

  describe("a sandboxed job's event log", () => {
    it("is the same from the same scenario, and names what was learned, not the pickle's bytes", async () => {
      const run = async () => {
        const { h, job } = await trained(Object.fromEntries(KINDS).random_forest, "sandbox");
        return { lines: [...eventLines(h.ctx.db)], job };
      };
      const [a, b] = [await run(), await run()];
      expect(a.lines).toEqual(b.lines);
      const completed = a.lines.map((l) => JSON.parse(l)).find((e) => e.type === "job.completed");
      expect(completed.payload.model_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(a.lines.join("\n")).not.toContain(a.job.artifact.sha256 as string);
    });
  });
});
