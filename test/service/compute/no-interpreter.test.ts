import { describe, expect, it } from "vitest";
import { eventHarness } from "../../helpers/event-harness.js";
import { usingInterpreter } from "../../helpers/python.js";

const ANN = "key-ann-00000001";
usingInterpreter("/nonexistent/basecamp-python");

describe("a job with no interpreter to pickle its model", () => {
  it("still completes with its metrics; the artifact is absent with the reason", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const job = await h.service.train(ANN, { model: "ridge" });
    if ("dry_run" in job) throw new Error("not a job");
    await h.at(h.clock.now() + 120 * 1000);
    const done = await h.service.getJob(ANN, job.job_id);
    expect(done).toMatchObject({ status: "completed", cost_cents: 1, trainer_python_version: null, artifact: { available: false, sha256: null } });
    expect(done.metrics?.cv.corr.mean).toEqual(expect.any(Number));
    expect(done.artifact.error).toContain("/nonexistent/basecamp-python: not found");
    await expect(h.service.downloadModel(ANN, job.job_id)).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(new RegExp(`^Job ${job.job_id} has no model artifact: no Python interpreter`)),
    });
  });
});
