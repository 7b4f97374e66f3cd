import { tmpdir } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { readFrameParquet } from "../../src/data/parquet.js";
import { ALICE, BOB, EVE, testServer, type TestServer } from "../http/server.js";
import { callTool, fetchDownload, mcpClient } from "./client.js";

/** The tools the spec names (and the event/tournament tools the public facts name) that Basecamp serves. */
const SERVED = [
  "get_event_staking",
  "set_stake_allocation",
  "withdraw_stake_allocation",
  "get_final_selection",
  "set_final_selection",
  "get_final_board",
  "get_started",
  "get_status",
  "whoami",
  "create_model",
  "get_models",
  "archive_model",
  "upload_model",
  "get_upload_status",
  "set_auto_submit",
  "download_benchmark",
  "download_dataset",
  "get_benchmarks",
  "explain_scoring",
  "get_current_round",
  "get_schedule",
  "get_instruments",
  "submit_futures_predictions",
  "get_standings",
  "get_leaderboard",
  "submit_event_predictions",
  "submit_event_predictions_batch",
  "submit_validation_diagnostics",
  "submit_diagnostics_batch",
  "get_run",
  "delete_run",
  "get_event_round_board",
  "get_diagnostics_leaderboard",
  "stake_from_wallet",
  "get_stake_allowance",
  "get_stake",
  "stake_on_model",
  "relay_stake",
  "relay_claim",
  "withdraw_usdc",
  "get_deposit_address",
  "get_forwarder_balance",
  "train",
  "get_job_status",
  "get_job_log",
  "list_compute_jobs",
  "cancel_job",
  "get_compute_credits",
  "download_model",
  "start_machine",
  "run_on_machine",
  "read_machine_file",
  "stop_machine",
  "get_machine",
  "list_machine_sessions",
];

let s: TestServer;
beforeAll(async () => {
  s = await testServer();
});

describe("the /mcp transport of basecamp serve", () => {
  it("lists every served tool, each with a description and an object input schema", async () => {
    const client = await mcpClient(s.url, { "X-API-Key": ALICE });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...SERVED].sort());
    for (const t of tools) {
      expect(t.description?.length).toBeGreaterThan(20);
      expect(t.inputSchema.type).toBe("object");
    }
    expect(tools.find((t) => t.name === "submit_futures_predictions")?.inputSchema.required).toEqual(["model_id", "exped", "predictions"]);
  });

  it("takes the key from X-API-Key or from Authorization: Bearer, and answers as /api/v1/status does", async () => {
    const rest = await s.get("/api/v1/status", ALICE);
    for (const headers of [{ "X-API-Key": ALICE }, { Authorization: `Bearer ${ALICE}` }] as Record<string, string>[]) {
      const started = await callTool(await mcpClient(s.url, headers), "get_started");
      expect(started.isError).toBe(false);
      expect(started.json).toEqual(rest.json);
    }
    const status = await callTool(await mcpClient(s.url, { Authorization: `Bearer ${ALICE}` }), "get_status");
    expect(Object.keys(status.json).sort()).toEqual(["cadence", "live_round", "models", "now", "uploads_remaining"]);
  });

  it("counts its wrong keys against the caller's address, as /api/v1 does: past the ceiling a key never seen from it is refused there too", async () => {
    const guarded = await testServer({ rate_limit: { ceiling: 1000, window_seconds: 60, failed_auth_ceiling: 2 } });
    for (const key of ["key-guess-0", "key-guess-1"]) {
      expect(await callTool(await mcpClient(guarded.url, { "X-API-Key": key }), "get_started")).toMatchObject({
        isError: true,
        json: { detail: { code: "invalid_api_key" } },
      });
    }
    expect((await guarded.get("/api/v1/status", ALICE)).status).toBe(429);
  });

  it("answers a missing or wrong key with the 401 body as a tool error; whoami and explain_scoring still answer", async () => {
    const anonymous = await mcpClient(s.url, {});
    expect(await callTool(anonymous, "get_started")).toMatchObject({
      isError: true,
      json: { detail: { code: "missing_api_key", message: "Missing API key" } },
    });
    const wrong = await mcpClient(s.url, { Authorization: "Bearer not-a-key" });
    const refused = await callTool(wrong, "get_models");
    expect(refused.text).toBe(JSON.stringify({ detail: { code: "invalid_api_key", message: "Invalid API key" } }));
    expect((await callTool(wrong, "whoami")).json).toMatchObject({ authenticated: false, fingerprint: null });
    expect((await callTool(anonymous, "explain_scoring")).json).toEqual((await s.get("/api/v1/scoring")).json);
    const me = await callTool(await mcpClient(s.url, { Authorization: `Bearer ${ALICE}` }), "whoami");
    expect(me.json).toMatchObject({ authenticated: true, scope: "tournament", agent: "alice" });
    expect(me.text).not.toContain(ALICE);
  });

  it("refuses a key in the query string on /mcp too, with the 401 body, before any tool runs", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    for (const query of ["api_key", "X-API-Key", "key"]) {
      const a = await s.call("POST", `/mcp?${query}=${ALICE}`, { body, headers: { accept: "application/json, text/event-stream" } });
      expect(a.status, query).toBe(401);
      expect(a.json, query).toEqual({
        detail: { code: "key_in_query_refused", message: "API keys in the query string are refused; send the key in X-API-Key." },
      });
    }
  });

  it("still refuses Authorization: Bearer on /api/v1, and serves /mcp by POST only", async () => {
    const a = await s.call("GET", "/api/v1/status", { headers: { Authorization: `Bearer ${ALICE}` } });
    expect(a.status).toBe(401);
    expect(a.json.detail.code).toBe("authorization_header_refused");
    const get = await s.call("GET", "/mcp", { key: ALICE, headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("plays a tournament round: clock, instruments, model, a refused and an accepted submit, the same state as REST", async () => {
    const bob = await mcpClient(s.url, { Authorization: `Bearer ${BOB}` });
    expect((await s.advance({ seconds: 60 })).status).toBe(200);
    const round = await callTool(bob, "get_current_round");
    const instruments = await callTool(bob, "get_instruments");
    expect(instruments.json.exped).toBe(round.json.exped);
    const ids: string[] = instruments.json.instrument_ids;
    expect(ids.length).toBeGreaterThan(3);
    const model = await callTool(bob, "create_model", { name: "bob-mcp" });
    expect(model.json).toMatchObject({ name: "bob-mcp", status: "created" });
    const entries = ids.map((instrument_id) => ({ instrument_id, prediction: 0.5 }));
    const args = { model_id: "bob-mcp", exped: round.json.exped };

    const short = await callTool(bob, "submit_futures_predictions", { ...args, predictions: entries.slice(3) });
    expect(short.isError).toBe(true);
    expect(short.text).toBe(JSON.stringify({ detail: { code: "missing_instruments", message: "Missing predictions for 3 instruments." } }));
    const rest = await s.post("/api/v1/futures/submit/v2", { ...args, predictions: entries.slice(3) }, BOB);
    expect(rest.status).toBe(400);
    expect(JSON.parse(short.text)).toEqual(rest.json);

    const outside = await callTool(bob, "submit_futures_predictions", { ...args, predictions: [{ ...entries[0], prediction: 1.5 }, ...entries.slice(1)] });
    expect(outside.json.detail).toMatchObject({ code: "prediction_out_of_range" });

    const accepted = await callTool(bob, "submit_futures_predictions", { ...args, predictions: entries });
    expect(accepted.isError).toBe(false);
    expect(accepted.json).toMatchObject({ model: "bob-mcp", exped: round.json.exped, n_predictions: ids.length, replaced: false });
    const models = (await s.get("/api/v1/models", BOB)).json.models;
    expect((await callTool(bob, "get_models")).json.models).toEqual(models);
    const archived = await callTool(bob, "archive_model", { model: "ghost" });
    expect(archived.json.detail).toEqual({ code: "model_name_unknown", message: "No model 'ghost'. Create it first with create_model." });
  });

  it("download_benchmark and download_dataset answer the REST URL of the file, never a path on the server", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    for (const [tool, file] of [["download_benchmark", "validation_benchmark_models"], ["download_dataset", "validation"]]) {
      const answer = await callTool(alice, tool, { universe: "futures", split: "validation" });
      expect(answer.isError).toBe(false);
      expect(answer.json).not.toHaveProperty("path");
      expect(JSON.stringify(answer.json)).not.toContain(tmpdir());
      expect(answer.json.download_url).toBe(`${s.url}/api/v1/futures/data/${file}`);
      expect(answer.json.filename).toMatch(new RegExp(`^.+_${file}\\.parquet$`));
      const frame = readFrameParquet(await fetchDownload(answer.json.download_url, ALICE));
      expect(answer.json).toMatchObject({ rows: frame.ids.length, index: "id", columns: ["exped", ...Object.keys(frame.columns)] });
    }

    const eve = await mcpClient(s.url, { "X-API-Key": EVE });
    const withheld = await callTool(eve, "download_benchmark", { split: "validation" });
    expect(withheld.json.detail.code).toBe("benchmark_withheld");
    expect((await callTool(alice, "download_benchmark", { split: "../x" })).json.detail).toMatchObject({ code: "invalid_split" });
  });

  it("leaves argument types to the SDK and unknown tools unserved", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const badArgs = await alice.callTool({ name: "create_model", arguments: { name: 42 } });
    expect(badArgs.isError).toBe(true);
    expect((badArgs.content as { text: string }[])[0].text).toMatch(/^MCP error -32602: Input validation error/);
    const unserved = await alice.callTool({ name: "health", arguments: {} });
    expect(unserved.isError).toBe(true);
    expect((unserved.content as { text: string }[])[0].text).toContain("Tool health not found");
  });
});

describe("/mcp behind the access gate", () => {
  it("bounces a request without the gate headers and serves one with them", async () => {
    const gate = { client_id: "gate-id.access", client_secret: "gate-secret-0001" };
    const g = await testServer({ gate });
    const bounced = await g.call("POST", "/mcp", { key: ALICE, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(bounced.status).toBe(302);
    const client = await mcpClient(g.url, { "X-API-Key": ALICE, "CF-Access-Client-Id": gate.client_id, "CF-Access-Client-Secret": gate.client_secret });
    expect((await callTool(client, "whoami")).json.authenticated).toBe(true);
  });
});
