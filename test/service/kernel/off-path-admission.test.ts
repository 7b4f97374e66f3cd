import { describe, expect, it } from "vitest";
import { uploadOf } from "../../../sim/agents/event-upload.js";
import { ANN, eventServer, newModel, splitIds, spread } from "../../http/event-server.js";

describe("an off-path operation's first serial step", () => {
  it("an upload's checks that need no file run in the step that admits its caller: a call made meanwhile comes after them", async () => {
    const s = await eventServer();
    const db = s.service.ctx.db;
    const model = await newModel(s, ANN, "a");
    const ids = await splitIds(s, ANN, "validation");
    const seen: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      // The upload's replay lookup (its first checks, and again as it is accepted); the status's list of model names.
      if (/\bidempotency_key = \?/.test(sql)) seen.push("upload checks");
      if (/^SELECT name FROM models WHERE agent_id = \?/.test(sql)) seen.push("status");
      return prepare(sql);
    }) as typeof db.prepare;
    const upload = s.service.perform("uploadPractice", ANN, [uploadOf(model, ids, Float64Array.from(spread(ids)), "retry-1")]);
    const status = s.service.perform("getStarted", ANN, []);
    expect(await upload).toMatchObject({ status: "accepted", lane: "practice" });
    expect(await status).toMatchObject({ models: [model] });
    expect(seen).toEqual(["upload checks", "status", "upload checks"]);
  });
});
