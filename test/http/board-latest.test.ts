import { describe, expect, it } from "vitest";
import { ANN, BEN, csvUpload, eventServer, newModel, postForm, PRACTICE_UPLOAD, splitIds, spread } from "./event-server.js";
import type { TestServer } from "./server.js";

async function scoredRun(s: TestServer, key: string, model: string, ids: string[], k: number): Promise<number> {
  const a = await postForm(s, PRACTICE_UPLOAD, key, csvUpload(model, ids, spread(ids, k)));
  expect(a.status).toBe(202);
  expect((await s.advance({ seconds: 120 })).status).toBe(200);
  const run = await s.get(`/api/v1/diagnostics/runs/${a.json.upload_id}`, key);
  expect(run.json.status).toBe("finalised");
  return run.json.scores.score as number;
}

describe("a board's rows", () => {
  it("rank each model by its latest scored run: an earlier run of the model no longer counts, another model's still does", async () => {
    const s = await eventServer();
    const ids = await splitIds(s, ANN, "validation");
    const twice = await newModel(s, ANN, "twice");
    const once = await newModel(s, BEN, "once");
    const first = await scoredRun(s, ANN, twice, ids, 1);
    const other = await scoredRun(s, BEN, once, ids, 5);
    const latest = await scoredRun(s, ANN, twice, ids, 3);
    expect(latest).not.toBe(first);
    const board = await s.get("/api/v1/diagnostics/board", ANN);
    expect(board.status).toBe(200);
    const totals = Object.fromEntries(board.json.rows.map((r: { model: string; total: number }) => [r.model, r.total]));
    expect(totals).toEqual({ [twice]: latest, [once]: other });
  });
});
