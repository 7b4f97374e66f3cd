import { readFileSync } from "node:fs";
import { beforeAll, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { ALICE, testServer, type TestServer } from "../http/server.js";
import { callTool, mcpClient } from "./client.js";

const PKL_PATH = new URL("../../data/samples/predict.pkl", import.meta.url).pathname;
const PKL_BASE64 = readFileSync(PKL_PATH).toString("base64");

let s: TestServer;
beforeAll(async () => {
  s = await testServer({ auto_submit: { validation_seconds: 5 } });
});

requires("python").describe("the auto-submit lane by MCP", () => {
  it("uploads a .pkl from its base64 contents, reports its validation and switches the lane", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    expect((await callTool(alice, "create_model", { name: "alice-model" })).json).toMatchObject({ auto_submit: true });
    const up = await callTool(alice, "upload_model", { model_id: "alice-model", content_base64: PKL_BASE64, filename: "predict.pkl", python_version: "3.11" });
    expect(up.isError).toBe(false);
    expect(up.json).toMatchObject({ status: "pending", filename: "predict.pkl", python_version: "3.11" });
    await s.advance({ seconds: 5 });
    const status = await callTool(alice, "get_upload_status", { model_id: "alice-model" });
    expect(status.json).toEqual((await s.get("/api/v1/models/alice-model/upload/status", ALICE)).json);
    expect(status.json).toMatchObject({ status: "validated", lane_active: true });
    const off = await callTool(alice, "set_auto_submit", { model_id: "alice-model", enabled: false });
    expect(off.json).toMatchObject({ auto_submit: false, lane_active: false });
  });

  it("refuses a server path over HTTP, naming the argument, and answers the service's refusals as tool errors", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const path = await callTool(alice, "upload_model", { model_id: "alice-model", path: PKL_PATH });
    expect(path).toMatchObject({ isError: true, json: { detail: { code: "mcp_path_refused", loc: ["arguments", "path"] } } });
    expect(path.text).not.toContain(PKL_PATH);
    const version = await callTool(alice, "upload_model", { model_id: "alice-model", content_base64: PKL_BASE64, python_version: "2.7" });
    expect(version.json.detail).toMatchObject({ code: "python_version_unsupported" });
  });
});
