import { beforeAll, describe, expect, it } from "vitest";
import { smallScenario } from "../helpers/small-scenario.js";
import { ALICE, EVE, refusal, testServer, type TestServer } from "./server.js";

const LLM = "key-lenny-000008";
const BLOCKED = "key-blocky-00009";

const agents = [
  ...smallScenario().agents,
  { name: "lenny", key: LLM, scope: "llm", strategy: "random" },
  { name: "blocky", key: BLOCKED, blocked: true, strategy: "random" },
];

let s: TestServer;
beforeAll(async () => {
  s = await testServer({ agents });
});

describe("the key travels only in X-API-Key (General 401 rows)", () => {
  it("refuses a missing and a wrong key with the spec's texts", async () => {
    expect(refusal(await s.get("/api/v1/status"))).toEqual({ status: 401, code: "missing_api_key", message: "Missing API key" });
    expect(refusal(await s.get("/api/v1/status", "key-nobody-00000"))).toEqual({
      status: 401,
      code: "invalid_api_key",
      message: "Invalid API key",
    });
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(200);
  });

  it("refuses any Authorization header on /api/v1, even next to a good key", async () => {
    for (const value of [`Bearer ${ALICE}`, "Basic dXNlcjpwYXNz"]) {
      const a = await s.call("GET", "/api/v1/status", { key: ALICE, headers: { Authorization: value } });
      expect(refusal(a)).toMatchObject({ status: 401, code: "authorization_header_refused" });
    }
    const scoring = await s.call("GET", "/api/v1/scoring", { headers: { Authorization: `Bearer ${ALICE}` } });
    expect(scoring.status).toBe(401);
  });

  it("refuses a key in the query string, in any spelling and case", async () => {
    for (const q of ["api_key", "key", "x-api-key", "API_KEY", "X-Api-Key", "Key"]) {
      const a = await s.call("GET", `/api/v1/status?${q}=${ALICE}`, { key: ALICE });
      expect(refusal(a)).toMatchObject({ status: 401, code: "key_in_query_refused" });
    }
    expect((await s.get("/api/v1/rounds/current?tournament=futures", ALICE)).status).toBe(200);
  });

  it("whoami answers 200 for a bad or missing key, and never shows the key", async () => {
    const bad = await s.get("/api/v1/whoami", "key-nobody-00000");
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ authenticated: false, scope: null });
    expect((await s.get("/api/v1/whoami")).json.authenticated).toBe(false);
    const good = await s.get("/api/v1/whoami", ALICE);
    expect(good.json).toMatchObject({ authenticated: true, scope: "tournament", email_confirmed: true, agent: "alice" });
    expect(good.json.fingerprint).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(good.json)).not.toContain(ALICE);
  });
});

describe("scopes (General 403 rows)", () => {
  it("refuses tournament operations to an event-confined key with scope_restricted", async () => {
    const submit = await s.post("/api/v1/futures/submit/v2", { model_id: "m", exped: "exped_0021", predictions: [] }, EVE);
    expect(refusal(submit)).toEqual({
      status: 403,
      code: "scope_restricted",
      message: "Scope restricted: this event key is confined to its own product and cannot use futures submit.",
    });
    expect(refusal(await s.get("/api/v1/futures/data/train", EVE))).toMatchObject({ status: 403, code: "scope_restricted" });
  });

  it("refuses an LLM-scoped key on every non-LLM endpoint", async () => {
    const paths = [
      "/api/v1/rounds/current",
      "/api/v1/schedule",
      "/api/v1/futures/rounds/current/instruments",
      "/api/v1/futures/data/train",
      "/api/v1/futures/data/train_benchmark_models",
      "/api/v1/benchmarks/board",
      "/api/v1/models",
      "/api/v1/futures/standings",
      "/api/v1/futures/rounds/exped_0021/board",
    ];
    for (const path of paths) {
      const a = await s.get(path, LLM);
      expect(a.status, path).toBe(403);
      expect(a.json.detail.code, path).toBe("llm_scope_only");
      expect(a.json.detail.message, path).toMatch(/^This key is LLM-scoped and cannot call /);
    }
    expect(refusal(await s.post("/api/v1/models", { name: "llm-model" }, LLM))).toMatchObject({ status: 403, code: "llm_scope_only" });
    // Orientation reads are the LLM endpoints.
    expect((await s.get("/api/v1/status", LLM)).json).toMatchObject({ scope: "llm", lane: "none" });
    expect((await s.get("/api/v1/whoami", LLM)).json.scope).toBe("llm");
  });

  it("refuses a blocked account with 403", async () => {
    expect(refusal(await s.get("/api/v1/status", BLOCKED))).toEqual({ status: 403, code: "account_blocked", message: "Account blocked" });
  });

  it("gives an event key only the train benchmark file: validation and live are 404 by design", async () => {
    const train = await s.get("/api/v1/futures/data/train_benchmark_models", EVE);
    expect(train.status).toBe(200);
    for (const split of ["validation", "live"]) {
      const a = await s.get(`/api/v1/futures/data/${split}_benchmark_models`, EVE);
      expect(refusal(a)).toEqual({
        status: 404,
        code: "benchmark_withheld",
        message: `Benchmark file not found: futures/${split}_benchmark_models (event keys get only the train benchmark file)`,
      });
    }
    expect((await s.get("/api/v1/benchmarks/board", EVE)).json).toMatchObject({ models: [] });
  });
});

describe("access gate", () => {
  const gate = { client_id: "gate-id.access", client_secret: "gate-secret-0001" };
  let g: TestServer;
  beforeAll(async () => {
    g = await testServer({ gate });
  });

  it("bounces /api/v1 without both service-token headers to a login page, before any API logic", async () => {
    const cases: Record<string, string>[] = [
      {},
      { "CF-Access-Client-Id": gate.client_id },
      { "CF-Access-Client-Secret": gate.client_secret },
      { "CF-Access-Client-Id": gate.client_id, "CF-Access-Client-Secret": "wrong" },
    ];
    for (const headers of cases) {
      // Even a request the API would refuse (no key, Authorization header) is bounced first.
      for (const extra of [{}, { Authorization: "Bearer x" }] as Record<string, string>[]) {
        const a = await g.call("GET", "/api/v1/status?x=1", { key: ALICE, headers: { ...headers, ...extra } });
        expect(a.status).toBe(302);
        expect(a.headers.get("location")).toBe("/cdn-cgi/access/login?redirect_url=%2Fapi%2Fv1%2Fstatus%3Fx%3D1");
        expect(a.json).toBeNull();
      }
    }
    const login = await fetch(`${g.url}/api/v1/status`, { headers: { "X-API-Key": ALICE } });
    expect(login.status).toBe(200);
    expect(login.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("lets a request with both correct headers through to the API", async () => {
    const headers = { "CF-Access-Client-Id": gate.client_id, "CF-Access-Client-Secret": gate.client_secret };
    expect((await g.call("GET", "/api/v1/status", { key: ALICE, headers })).json.agent).toBe("alice");
    expect(refusal(await g.call("GET", "/api/v1/status", { headers }))).toMatchObject({ status: 401, code: "missing_api_key" });
  });
});
