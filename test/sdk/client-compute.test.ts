import { createHash } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { runPredict } from "../../src/participant/run-predict.js";
import { ApiError, BasecampClient, SimControl } from "../../src/sdk/client.js";
import { smallEvent } from "../helpers/small-event.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

requires("python").describe("the SDK's compute methods against basecamp serve", () => {
  it("trains a ridge, downloads its model, and files its predictions with that model on the practice board", async () => {
    const server = await startServer({ scenario: smallEvent({}, { compute: { budget_usd: "5" } }), port: 0, host: "127.0.0.1", clock: "manual", log: () => {} });
    servers.push(server);
    const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey });
    const ann = new BasecampClient({ baseUrl: server.url, apiKey: "key-ann-00000001" });
    await expect(ann.train({ model: "catboost" })).rejects.toBeInstanceOf(ApiError);
    const job = await ann.train({ model: "ridge", features: "all" });
    if ("dry_run" in job) throw new Error("not a job");
    await control.advance({ seconds: 120 });
    const done = await ann.getJob(job.job_id);
    expect(done).toMatchObject({ status: "completed" });
    expect((await ann.listJobs()).jobs.map((j) => j.job_id)).toEqual([job.job_id]);
    expect(await ann.computeCredits()).toMatchObject({ reserved_cents: 0, total_spent_usd: 0.01 });
    const pkl = await ann.downloadModel(job.job_id);

    const validation = await ann.downloadDataset("validation");
    const out = await runPredict({ isolation: "trusted", pkl, features: validation, benchmark: { ids: [], exped: [], columns: {} }, timeout_seconds: 60 });
    if (!out.ok) throw new Error(out.error);
    const model = await ann.createModel({ name: "hosted-ridge" });
    const rows = out.ids.map((id, i) => `${id},${out.values[i]}`);
    const run = await ann.uploadPractice({
      model_id: model.name,
      predictions: { filename: "predictions.csv", bytes: new TextEncoder().encode(["id,prediction", ...rows].join("\n")) },
      model_pkl: { filename: `${job.job_id}.pkl`, bytes: pkl },
      model_pkl_sha256: createHash("sha256").update(pkl).digest("hex"),
      model_pkl_python_version: done.trainer_python_version as string,
    });
    expect(run.status).toBe("accepted");
    await control.advance({ seconds: 90 });
    const scored = await ann.getRun(run.upload_id);
    expect(scored.status).toBe("finalised");
    expect(scored.scores?.corr).toBeGreaterThan(0);
    expect(await ann.cancelJob(job.job_id).catch((e: ApiError) => e.status)).toBe(409);
  });
});
