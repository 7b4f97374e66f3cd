import { describe, expect, it } from "vitest";
import { refuse } from "../../src/domain/errors.js";
import { renderError } from "../../src/http/render.js";
import { ALICE, BOB, refusal, testServer } from "./server.js";

describe("rate limit (429)", () => {
  it("counts per key and endpoint in a fixed window on the served clock; names the ceiling; no Retry-After", async () => {
    const s = await testServer({ rate_limit: { ceiling: 3, window_seconds: 60 } });
    for (let i = 0; i < 3; i++) expect((await s.get("/api/v1/schedule", ALICE)).status).toBe(200);
    const over = await s.get("/api/v1/schedule", ALICE);
    expect(refusal(over)).toEqual({
      status: 429,
      code: "rate_limited",
      message: "Rate limit exceeded: at most 3 requests per 60 s per key and endpoint.",
    });
    expect(over.json.detail).toMatchObject({ ceiling: 3, window_seconds: 60 });
    expect(over.headers.get("retry-after")).toBeNull();
    // Another endpoint, another key: their own windows.
    expect((await s.get("/api/v1/rounds/current", ALICE)).status).toBe(200);
    expect((await s.get("/api/v1/schedule", BOB)).status).toBe(200);
    // The next window (simulated time) starts afresh.
    await s.advance({ seconds: 60 });
    expect((await s.get("/api/v1/schedule", ALICE)).status).toBe(200);
  });
});

describe("failed authentications (429 per client address)", () => {
  it("past the ceiling of unknown keys, every keyed call from the address gets 429 naming it (no Retry-After) until the window ends", async () => {
    const s = await testServer({ rate_limit: { ceiling: 1000, window_seconds: 60, failed_auth_ceiling: 5 } });
    expect((await s.get("/api/v1/status")).status).toBe(401); // a missing key is no guess: not counted
    for (let i = 0; i < 5; i++) expect((await s.get("/api/v1/status", `key-guess-${i}`)).status).toBe(401);
    const over = await s.get("/api/v1/status", "key-guess-5");
    expect(refusal(over)).toEqual({
      status: 429,
      code: "auth_rate_limited",
      message: "Rate limit exceeded: at most 5 failed authentications per 60 s per client address.",
    });
    expect(over.json.detail).toMatchObject({ ceiling: 5, window_seconds: 60 });
    expect(over.headers.get("retry-after")).toBeNull();
    // A right guess now looks like a wrong one, on whoami too; the public scoring read still answers.
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(429);
    expect((await s.get("/api/v1/whoami", ALICE)).status).toBe(429);
    expect((await s.get("/api/v1/scoring")).status).toBe(200);
    await s.advance({ seconds: 60 });
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(200);
    expect((await s.get("/api/v1/whoami", "key-guess-6")).json.authenticated).toBe(false);
  });

  it("spares the keys already at work from the address: one client's 61 wrong keys do not lock its neighbours out", async () => {
    const s = await testServer();
    expect((await s.get("/api/v1/status", BOB)).status).toBe(200);
    for (let i = 0; i < 61; i++) await s.get("/api/v1/status", `key-guess-${i}`);
    const wrong = await s.get("/api/v1/status", "key-guess-61");
    expect(refusal(wrong)).toEqual({
      status: 429,
      code: "auth_rate_limited",
      message: "Rate limit exceeded: at most 60 failed authentications per 60 s per client address.",
    });
    expect(wrong.headers.get("retry-after")).toBeNull();
    // Bob's key authenticated from this address before: it keeps working, on every path.
    expect((await s.get("/api/v1/status", BOB)).status).toBe(200);
    expect((await s.get("/api/v1/whoami", BOB)).json.authenticated).toBe(true);
    // A key never seen from the address is refused like a wrong one, so a right guess still looks like a wrong one.
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(429);
  });

  it("stops a burst of guesses at the scenario's default ceiling (60 per 60 s)", async () => {
    const s = await testServer();
    const statuses = [];
    for (let i = 0; i < 200; i++) statuses.push((await s.get("/api/v1/whoami", `key-guess-${i}`)).status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(60);
    expect(statuses.slice(60).every((st) => st === 429)).toBe(true);
  });
});

describe("body limit (413)", () => {
  it("refuses a body over the limit, naming it, before the route runs", async () => {
    const s = await testServer({}, { bodyLimitBytes: 4096 });
    const big = { model_id: "m", exped: "e", predictions: Array.from({ length: 200 }, (_, i) => ({ instrument_id: `id-${i}`, prediction: 0.5 })) };
    const a = await s.post("/api/v1/futures/submit/v2", big, ALICE);
    expect(refusal(a)).toEqual({ status: 413, code: "payload_too_large", message: "Payload too large: the limit is 4096 bytes." });
    expect(a.json.detail.limit).toBe(4096);
    // A chunked body without Content-Length is counted as it streams.
    const chunks = new Blob([JSON.stringify(big)]).stream();
    const streamed = await fetch(`${s.url}/api/v1/futures/submit/v2`, {
      method: "POST",
      headers: { "X-API-Key": ALICE, "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await s.post("/api/v1/models", { name: "small-body" }, ALICE)).status).toBe(201);
  });
});

describe("unknown routes", () => {
  it("answers an unknown path with 404 and a known path under another method with 405 and Allow", async () => {
    const s = await testServer();
    expect(refusal(await s.get("/api/v1/nowhere", ALICE))).toEqual({ status: 404, code: "not_found", message: "Not found: GET /api/v1/nowhere" });
    const del = await s.call("DELETE", "/api/v1/models", { key: ALICE });
    expect(refusal(del)).toEqual({
      status: 405,
      code: "method_not_allowed",
      message: "Method DELETE is not allowed on /api/v1/models; allowed: POST, GET.",
    });
    expect(del.headers.get("allow")).toBe("POST, GET");
    expect((await s.call("GET", "/api/v1/futures/submit/v2", { key: ALICE })).status).toBe(405);
  });
});

describe("the error renderer", () => {
  it("emits every header a refusal carries (409 cadence fence, 503 saturated lane)", async () => {
    const fence = renderError(
      refuse("cadence_not_open", {}, { extra: { retry_after_seconds: 42, intake_fenced: true }, headers: { "Retry-After": "42" } }),
    );
    expect(fence.status).toBe(409);
    expect(fence.headers.get("retry-after")).toBe("42");
    expect(await fence.json()).toEqual({
      detail: { code: "cadence_not_open", message: "No paid round is fully open for intake.", retry_after_seconds: 42, intake_fenced: true },
    });
    const lane = renderError(refuse("lane_saturated", {}, { headers: { "Retry-After": "5" } }));
    expect(lane.status).toBe(503);
    expect(lane.headers.get("retry-after")).toBe("5");
  });
});
