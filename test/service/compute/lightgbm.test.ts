import { expect } from "vitest";
import { eventLines } from "../../../src/store/event-log.js";
import { checkHostedKind, trained } from "../../helpers/hosted-kind.js";
import { usingInterpreter } from "../../helpers/python.js";
import { requires } from "../../helpers/requires.js";
import { venvIsolation, VENV_PYTHON } from "../../helpers/venv.js";

/** A quick LightGBM: bagged rows and features, so its seed matters. */
const LIGHTGBM = { model: "lightgbm", params: { seed: 7, n_estimators: 30, num_leaves: 7, min_child_samples: 5, subsample: 0.7, colsample_bytree: 0.7 } };

usingInterpreter(VENV_PYTHON);

const venv = requires("python", "venv");

venv.describe("hosted training of lightgbm under the project venv", () => {
  venv.it("completes with CV metrics the scoring engine gives for the fold predictions, and a model the practice board scores", async () => {
    const { job } = await checkHostedKind("lightgbm", LIGHTGBM, await venvIsolation());
    expect(job.params).toMatchObject({ seed: 7, n_estimators: 30, num_leaves: 7, learning_rate: 0.05 });
  });

  venv.it("is deterministic: the same job gives the same model bytes and event log, another seed another model", async () => {
    const isolation = await venvIsolation();
    const run = async (params: Record<string, unknown>) => {
      const { h, job } = await trained({ ...LIGHTGBM, params: { ...LIGHTGBM.params, ...params } }, isolation);
      expect(job).toMatchObject({ status: "completed", error_message: null });
      const lines = [...eventLines(h.ctx.db)];
      const digest = lines.map((l) => JSON.parse(l)).find((e) => e.type === "job.completed").payload.model_digest as string;
      return { job, lines, digest, bytes: (await h.service.downloadModel("key-ann-00000001", job.job_id)).bytes };
    };
    const [a, b, c] = [await run({}), await run({}), await run({ seed: 8 })];
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.job.artifact.sha256).toBe(b.job.artifact.sha256);
    expect(a.lines).toEqual(b.lines);
    expect(c.digest).not.toBe(a.digest);
  }, 240_000);
});
