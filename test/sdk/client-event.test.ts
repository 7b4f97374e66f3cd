import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { ApiError } from "../../src/sdk/client.js";
import type { UploadInput } from "../../src/service/event/uploads.js";
import { uploadOf } from "../../sim/agents/event-upload.js";
import { simClockClient } from "../helpers/sim-clock-client.js";
import { smallEvent } from "../helpers/small-event.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function input(model_id: string, ids: string[], k = 1, extra: Partial<UploadInput> = {}): UploadInput {
  return { ...uploadOf(model_id, ids, Float64Array.from(ids, (_, i) => (((i * k) % ids.length) + 0.5) / ids.length)), ...extra };
}

/** The small event served for real; the client's sleeps move the simulated clock. */
async function setup() {
  const server = await startServer({ scenario: smallEvent(), port: 0, host: "127.0.0.1", clock: "manual", log: () => {} });
  servers.push(server);
  const { client: ann, control, sleeps } = simClockClient(server, "key-ann-00000001");
  return { server, control, sleeps, ann };
}

describe("the SDK's event methods against basecamp serve", () => {
  it("uploads to the practice board and polls the run to finalised; the board shows it", async () => {
    const { control, ann } = await setup();
    const model = await ann.createModel({ name: "sdk" });
    const validation = (await ann.downloadDataset("validation")).ids;
    const run = await ann.uploadPractice(input(model.name, validation));
    expect(run).toMatchObject({ lane: "practice", status: "accepted", model: model.name, uploads_remaining: 4 });
    let seen = run;
    for (let i = 0; i < 10 && seen.status !== "finalised"; i++) {
      await control.advance({ seconds: 15 });
      seen = await ann.getRun(run.upload_id);
    }
    expect(seen.status).toBe("finalised");
    expect(seen.n_matched).toBe(validation.length);
    expect(seen.scores).toMatchObject({ corr: expect.any(Number), ncorr: expect.any(Number) });
    const board = await ann.practiceBoard();
    expect(board.display_only).toBe(true);
    expect(board.rows.map((r) => r.model)).toEqual([model.name]);
  });

  it("waits out the cadence fence (Retry-After) on the round lane; batches, deletes and reads the sealed board", async () => {
    const { ann, sleeps } = await setup();
    const model = await ann.createModel({ name: "round" });
    const other = await ann.createModel({ name: "other" });
    // Built in the build phase; the round's ids are read once it opens.
    const status = await ann.getStarted();
    expect(status.cadence.intake_fenced).toBe(true);
    const validation = (await ann.downloadDataset("validation")).ids;
    const fenced = await ann.uploadRound(input(model.name, validation, 3));
    expect(sleeps).toEqual([600_000]);
    expect(fenced).toMatchObject({ lane: "round", round_window: "round_1", uploads_remaining: 3 });
    expect(await ann.deleteRun(fenced.upload_id)).toEqual({ upload_id: fenced.upload_id, status: "cancelled" });

    const live = (await ann.downloadDataset("live")).ids;
    const batch = await ann.uploadBatch("round", [
      input(model.name, live, 1, { idempotency_key: "a" }),
      input(other.name, live, 7, { idempotency_key: "b", model_pkl_python_version: "3" }),
    ]);
    expect(batch.all_succeeded).toBe(false);
    expect(batch.items.map((i) => i.outcome)).toEqual(["accepted", "refused"]);
    expect(batch.items[1].error).toMatchObject({ status: 400, message: "python_version must be 'major.minor'" });
    expect(batch.uploads_remaining).toBe(3);
    expect(await ann.eventRoundBoard("round_1")).toMatchObject({ window: "round_1", sealed: true, rows: [] });
    const error = await ann.getRun("upl_nowhere").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "upload_not_found" });
  });
});
