import { afterEach, describe, expect, it } from "vitest";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { ApiError, BasecampClient, SimControl } from "../../src/sdk/client.js";

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  redirect: RequestRedirect | undefined;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const refusal = (status: number, code: string, message: string, headers: Record<string, string> = {}, extra = {}) =>
  json(status, { detail: { code, message, ...extra } }, headers);

/** A fetch that answers from a script and records every request; a client whose sleeps are recorded, not waited. */
function scripted(responses: Response[], opts: Partial<ConstructorParameters<typeof BasecampClient>[0]> = {}) {
  const calls: Call[] = [];
  const sleeps: number[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
      redirect: init?.redirect,
    });
    const next = responses.shift();
    if (!next) throw new Error("the script ran out of responses");
    return next;
  }) as typeof globalThis.fetch;
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  const client = new BasecampClient({ baseUrl: "http://sim.test/", apiKey: "key-alice-0001", fetch, sleep, ...opts });
  return { client, calls, sleeps };
}

const savedEnv = { id: process.env.CF_ACCESS_CLIENT_ID, secret: process.env.CF_ACCESS_CLIENT_SECRET };
afterEach(() => {
  for (const [name, value] of [["CF_ACCESS_CLIENT_ID", savedEnv.id], ["CF_ACCESS_CLIENT_SECRET", savedEnv.secret]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("requests", () => {
  it("sends the key in X-API-Key only, never Authorization or the query string, and never follows redirects", async () => {
    const { client, calls } = scripted([json(200, { models: [] })]);
    await client.getModels();
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe("http://sim.test/api/v1/models");
    expect(calls[0].headers).toEqual({ "X-API-Key": "key-alice-0001" });
    expect(calls[0].redirect).toBe("manual");
  });

  it("sends both gate headers when both are given, and neither when only one is", async () => {
    delete process.env.CF_ACCESS_CLIENT_ID;
    delete process.env.CF_ACCESS_CLIENT_SECRET;
    const both = scripted([json(200, {})], { cfAccessClientId: "id.access", cfAccessClientSecret: "s3cret" });
    await both.client.getStarted();
    expect(both.calls[0].headers).toEqual({
      "X-API-Key": "key-alice-0001",
      "CF-Access-Client-Id": "id.access",
      "CF-Access-Client-Secret": "s3cret",
    });
    const one = scripted([json(200, {})], { cfAccessClientId: "id.access" });
    await one.client.getStarted();
    expect(one.calls[0].headers).toEqual({ "X-API-Key": "key-alice-0001" });
  });

  it("reads the gate credentials from CF_ACCESS_CLIENT_ID / CF_ACCESS_CLIENT_SECRET", async () => {
    process.env.CF_ACCESS_CLIENT_ID = "env-id";
    process.env.CF_ACCESS_CLIENT_SECRET = "env-secret";
    const { client, calls } = scripted([json(200, {})]);
    await client.getStarted();
    expect(calls[0].headers["CF-Access-Client-Id"]).toBe("env-id");
    expect(calls[0].headers["CF-Access-Client-Secret"]).toBe("env-secret");
  });

  it("maps each operation to its method and path", async () => {
    const ops: [string, (c: BasecampClient) => Promise<unknown>, string, string][] = [
      ["whoami", (c) => c.whoami(), "GET", "/api/v1/whoami"],
      ["getStarted", (c) => c.getStarted(), "GET", "/api/v1/status"],
      ["explainScoring", (c) => c.explainScoring(), "GET", "/api/v1/scoring"],
      ["currentRound", (c) => c.currentRound(), "GET", "/api/v1/rounds/current"],
      ["schedule", (c) => c.schedule(), "GET", "/api/v1/schedule"],
      ["instruments", (c) => c.instruments(), "GET", "/api/v1/futures/rounds/current/instruments"],
      ["benchmarks", (c) => c.benchmarks(), "GET", "/api/v1/benchmarks/board"],
      ["createModel", (c) => c.createModel({ name: "alice" }), "POST", "/api/v1/models"],
      ["getModels", (c) => c.getModels(), "GET", "/api/v1/models"],
      ["archiveModel", (c) => c.archiveModel("my model"), "POST", "/api/v1/models/my%20model/archive"],
      ["standings", (c) => c.standings(), "GET", "/api/v1/futures/standings"],
      ["roundBoard", (c) => c.roundBoard("exped_0042"), "GET", "/api/v1/futures/rounds/exped_0042/board"],
      ["stakeFromWallet", (c) => c.stakeFromWallet({ model_id: "alice", amount_usdc: "2.5" }), "POST", "/api/v1/staking/stake"],
      ["getStakeAllowance", (c) => c.getStakeAllowance(), "GET", "/api/v1/staking/allowance"],
      ["getStake", (c) => c.getStake("my model"), "GET", "/api/v1/staking/models/my%20model"],
    ];
    for (const [name, call, method, path] of ops) {
      const { client, calls } = scripted([json(200, { op: name })]);
      await expect(call(client)).resolves.toEqual({ op: name });
      expect(`${calls[0].method} ${calls[0].url}`, name).toBe(`${method} http://sim.test${path}`);
    }
  });

  it("posts JSON bodies, with non-finite predictions as the strings NaN / Infinity / -Infinity", async () => {
    const { client, calls } = scripted([json(201, { submission_id: "sub_1" })]);
    await client.submit({
      model_id: "alice",
      exped: "exped_0042",
      predictions: [
        { instrument_id: "a", prediction: 0.25 },
        { instrument_id: "b", prediction: Number.NaN },
        { instrument_id: "c", prediction: Number.POSITIVE_INFINITY },
        { instrument_id: "d", prediction: Number.NEGATIVE_INFINITY },
      ],
    });
    expect(calls[0].method).toBe("POST");
    expect(calls[0].url).toBe("http://sim.test/api/v1/futures/submit/v2");
    expect(calls[0].headers["Content-Type"]).toBe("application/json");
    expect(JSON.parse(calls[0].body as string).predictions.map((p: { prediction: unknown }) => p.prediction)).toEqual([
      0.25,
      "NaN",
      "Infinity",
      "-Infinity",
    ]);
  });

  it("decodes parquet downloads to a Frame", async () => {
    const frame = { ids: ["aa", "bb"], exped: ["exped_0001", "exped_0001"], columns: { v1_designated: Float64Array.of(0.25, 0.75) } };
    const { client, calls } = scripted([new Response(Buffer.from(writeFrameParquet(frame)), { status: 200 })]);
    await expect(client.downloadBenchmark("futures", "live")).resolves.toEqual(frame);
    expect(calls[0].url).toBe("http://sim.test/api/v1/futures/data/live_benchmark_models");
  });
});

describe("errors", () => {
  it("throws an ApiError with status, code, message, the whole detail and no retry for other refusals", async () => {
    const { client, sleeps, calls } = scripted([refusal(409, "submission_final", "Submission already exists for this model and exped.", {}, { exped: "exped_0042" })]);
    const error = await client.submit({ model_id: "alice", exped: "exped_0042", predictions: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: "submission_final",
      message: "Submission already exists for this model and exped.",
      detail: { code: "submission_final", message: "Submission already exists for this model and exped.", exped: "exped_0042" },
      retryAfter: null,
    });
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("turns a 302 from the access gate into a clear ApiError", async () => {
    const { client } = scripted([new Response(null, { status: 302, headers: { location: "https://gate.test/login" } })]);
    const error = await client.getStarted().catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 302,
      code: "access_gate",
      message: "the access gate bounced the request: set CF_ACCESS_CLIENT_ID / CF_ACCESS_CLIENT_SECRET",
      detail: { location: "https://gate.test/login" },
    });
  });

  it("keeps the text of an error page that is not the API's JSON", async () => {
    const { client } = scripted([new Response("<html>Forbidden by gate</html>", { status: 403, headers: { "content-type": "text/html" } })]);
    await expect(client.getStarted()).rejects.toMatchObject({ status: 403, code: "http_403", message: "<html>Forbidden by gate</html>" });
  });

  it("refuses an HTML page served with 200 where JSON was expected", async () => {
    const { client } = scripted([new Response("<html>sign in</html>", { status: 200, headers: { "content-type": "text/html" } })]);
    await expect(client.getStarted()).rejects.toMatchObject({ status: 200, code: "not_json" });
  });
});

describe("retry rules", () => {
  const fence = (headers: Record<string, string>, extra = {}) =>
    refusal(409, "cadence_not_open", "No paid round is fully open for intake.", headers, { intake_fenced: true, ...extra });

  it("waits out a 409 cadence fence for its Retry-After, then retries", async () => {
    const { client, sleeps, calls } = scripted([fence({ "Retry-After": "30" }, { retry_after_seconds: 30 }), json(200, { exped: "exped_0042" })]);
    await expect(client.instruments()).resolves.toEqual({ exped: "exped_0042" });
    expect(sleeps).toEqual([30_000]);
    expect(calls).toHaveLength(2);
  });

  it("falls back to detail.retry_after_seconds when the fence has no Retry-After header", async () => {
    const { client, sleeps } = scripted([fence({}, { retry_after_seconds: 12 }), fence({}, { retry_after_seconds: 3 }), json(200, { ok: 1 })]);
    await expect(client.instruments()).resolves.toEqual({ ok: 1 });
    expect(sleeps).toEqual([12_000, 3_000]);
  });

  it("waits 5 s on a 503, or the Retry-After it names", async () => {
    const saturated = (headers: Record<string, string>) => refusal(503, "lane_saturated", "Upload lane saturated; retry after 5 seconds.", headers);
    const { client, sleeps } = scripted([saturated({ "Retry-After": "5" }), saturated({}), saturated({ "Retry-After": "7" }), json(200, { ok: 1 })]);
    await expect(client.getStarted()).resolves.toEqual({ ok: 1 });
    expect(sleeps).toEqual([5_000, 5_000, 7_000]);
  });

  it("backs off exponentially on 429 (which has no Retry-After), capped, and throws the last error after maxRetries", async () => {
    const limited = (n: number) => refusal(429, "rate_limited", `Rate limit exceeded (${n})`, {}, { ceiling: 3 });
    const { client, sleeps, calls } = scripted(Array.from({ length: 9 }, (_, i) => limited(i + 1)), { maxRetries: 8 });
    const error = await client.standings().catch((e: unknown) => e);
    expect(sleeps).toEqual([1, 2, 4, 8, 16, 32, 32, 32].map((s) => s * 1000));
    expect(calls).toHaveLength(9);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", message: "Rate limit exceeded (9)", retryAfter: null });
  });

  it("retries 6 times by default", async () => {
    const limited = refusal(429, "rate_limited", "Rate limit exceeded");
    const { client, sleeps } = scripted(Array.from({ length: 7 }, () => limited.clone()));
    await expect(client.getModels()).rejects.toMatchObject({ status: 429 });
    expect(sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
  });

  it("does not retry with maxRetries 0", async () => {
    const { client, sleeps } = scripted([fence({ "Retry-After": "30" })], { maxRetries: 0 });
    await expect(client.instruments()).rejects.toMatchObject({ status: 409, code: "cadence_not_open", retryAfter: 30 });
    expect(sleeps).toEqual([]);
  });
});

describe("SimControl", () => {
  it("sends the organiser key and the advance request as JSON", async () => {
    const calls: { url: string; headers: unknown; body: unknown }[] = [];
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(input), headers: init?.headers, body: init?.body });
      return json(200, { now: "2026-01-05T00:00:01.000Z", cadence: {}, transitions: [] });
    }) as typeof globalThis.fetch;
    const control = new SimControl({ baseUrl: "http://sim.test", organiserKey: "organiser-key-0000", fetch });
    await control.advance({ until: "2026-01-05T16:00:00.000Z" });
    expect(calls[0].url).toBe("http://sim.test/sim/v1/clock/advance");
    expect(calls[0].headers).toMatchObject({ "X-API-Key": "organiser-key-0000" });
    expect(JSON.parse(calls[0].body as string)).toEqual({ until: "2026-01-05T16:00:00.000Z" });
  });
});
