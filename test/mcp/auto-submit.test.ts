import { beforeAll, describe, expect, it } from "vitest";
import { ALICE, testServer, type TestServer } from "../http/server.js";
import { callTool, mcpClient } from "./client.js";

const PKL_PATH = new URL("../../data/samples/predict.pkl", import.meta.url).pathname;

let s: TestServer;
beforeAll(async () => {
  s = await testServer({ auto_submit: { validation_seconds: 5 } });
});

describe("the auto-submit lane by MCP", () => {
  it("uploads a .pkl from its path, reports its validation and switches the lane", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    expect((await callTool(alice, "create_model", { name: "alice-model" })).json).toMatchObject({ auto_submit: true });
    const up = await callTool(alice, "upload_model", { model_id: "alice-model", path: PKL_PATH, python_version: "3.11" });
    expect(up.isError).toBe(false);
    expect(up.json).toMatchObject({ status: "pending", filename: "predict.pkl", python_version: "3.11" });
    await s.advance({ seconds: 5 });
    const status = await callTool(alice, "get_upload_status", { model_id: "alice-model" });
    expect(status.json).toEqual((await s.get("/api/v1/models/alice-model/upload/status", ALICE)).json);
    expect(status.json).toMatchObject({ status: "validated", lane_active: true });
    const off = await callTool(alice, "set_auto_submit", { model_id: "alice-model", enabled: false });
    expect(off.json).toMatchObject({ auto_submit: false, lane_active: false });
  });

  it("answers an unreadable path with a 422 on its argument, and the service's refusals as tool errors", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const missing = await callTool(alice, "upload_model", { model_id: "alice-model", path: "/nonexistent/model.pkl" });
    expect(missing).toMatchObject({ isError: true, json: { detail: { code: "validation_error", loc: ["arguments", "path"] } } });
    const version = await callTool(alice, "upload_model", { model_id: "alice-model", path: PKL_PATH, python_version: "2.7" });
    expect(version.json.detail).toMatchObject({ code: "python_version_unsupported" });
  });
});
