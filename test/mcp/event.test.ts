import { beforeAll, describe, expect, it } from "vitest";
import { readFrameParquet } from "../../src/data/parquet.js";
import { ANN, PKL, PKL_SHA, ROUND_UPLOAD, csv, csvUpload, eventServer, postForm, spread, toPhase } from "../http/event-server.js";
import type { TestServer } from "../http/server.js";
import { callTool, fetchDownload, mcpClient } from "./client.js";

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const PKL_BASE64 = base64(PKL);

const inline = (ids: string[], values: number[]) => Object.fromEntries(ids.map((id, i) => [id, values[i]]));

let s: TestServer;
let validation: string[];
beforeAll(async () => {
  s = await eventServer();
});

describe("the event lanes by MCP", () => {
  it("uploads to the practice board from inline predictions, with the .pkl as base64 contents", async () => {
    const ann = await mcpClient(s.url, { Authorization: `Bearer ${ANN}` });
    const data = await callTool(ann, "download_dataset", { split: "validation" });
    validation = readFrameParquet(await fetchDownload(data.json.download_url, ANN)).ids;
    const model = await callTool(ann, "create_model", { name: "label" });
    expect(model.json.name).toMatch(/^participant_/);
    const run = await callTool(ann, "submit_validation_diagnostics", {
      model_id: model.json.name,
      predictions: inline(validation, spread(validation)),
      model_pkl_base64: PKL_BASE64,
      model_pkl_filename: "predict.pkl",
      model_pkl_python_version: "3.12",
    });
    expect(run.isError).toBe(false);
    expect(run.json).toMatchObject({ lane: "practice", status: "accepted", n_rows: validation.length, uploads_remaining: 4 });
    const polled = await callTool(ann, "get_run", { upload_id: run.json.upload_id });
    expect(polled.json).toMatchObject({ upload_id: run.json.upload_id, status: "accepted" });
  });

  it("gives the round lane's cadence fence as the REST body, then takes a base64 predictions file once a round is open", async () => {
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "get_models")).json.models[0].name;
    const file = csv(validation, spread(validation, 3));
    const args = { model_id: m, predictions_base64: base64(file), predictions_filename: "round.csv", model_pkl_base64: PKL_BASE64, model_pkl_python_version: "3.12" };
    const fenced = await callTool(ann, "submit_event_predictions", args);
    const rest = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 3)));
    expect(rest.status).toBe(409);
    expect(fenced).toMatchObject({ isError: true, json: rest.json });
    expect(fenced.json.detail.code).toBe("cadence_not_open");

    await toPhase(s, "round_1");
    const run = await callTool(ann, "submit_event_predictions", args);
    expect(run.json).toMatchObject({ lane: "round", status: "accepted", round_window: "round_1", uploads_remaining: 3 });
    expect((await callTool(ann, "get_status")).json.uploads_remaining).toBe(3);
    const again = await callTool(ann, "submit_event_predictions", { ...args, model_pkl_sha256: PKL_SHA });
    expect(again.json.detail).toMatchObject({ code: "predictions_filed_by_you" });
    const mismatch = await callTool(ann, "submit_event_predictions", { ...args, model_pkl_sha256: "0".repeat(64) });
    expect(mismatch.json.detail.code).toBe("model_pkl_sha256_mismatch");
    const garbled = await callTool(ann, "submit_event_predictions", { ...args, predictions_base64: "not base64!" });
    expect(garbled.json.detail).toMatchObject({ code: "validation_error", loc: ["arguments", "predictions_base64"] });
    const noPkl = await callTool(ann, "submit_event_predictions", { model_id: m, predictions_base64: base64(file) });
    expect(noPkl.json.detail).toEqual({ code: "model_pkl_required", message: "A model .pkl file is required for hackathon submissions." });
  });

  it("batches on the practice lane with an outcome per item", async () => {
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "get_models")).json.models[0].name;
    const item = (k: number) => ({ model_id: m, predictions: inline(validation, spread(validation, k)), model_pkl_base64: PKL_BASE64 });
    const batch = await callTool(ann, "submit_diagnostics_batch", { items: [item(5), { ...item(7), model_id: "ghost" }] });
    expect(batch.isError).toBe(false);
    expect(batch.json.all_succeeded).toBe(false);
    expect(batch.json.items.map((i: { outcome: string }) => i.outcome)).toEqual(["accepted", "refused"]);
    expect(batch.json.items[1].error).toMatchObject({ status: 404 });
  });
});
