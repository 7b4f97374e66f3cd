import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { ApiError, BasecampClient } from "../../src/sdk/client.js";
import { simClockClient } from "../helpers/sim-clock-client.js";
import { smallScenario } from "../helpers/small-scenario.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(overrides: Record<string, unknown>): Promise<RunningServer> {
  const server = await startServer({ scenario: smallScenario(overrides), port: 0, clock: "manual", log: () => {} });
  servers.push(server);
  return server;
}

describe("the SDK against basecamp serve", () => {
  it("backs off on 429 until the fixed window, running on the simulated clock, lets the call through", async () => {
    // The season starts at midnight, so the first one-minute window starts with it.
    const server = await serve({ rate_limit: { ceiling: 3, window_seconds: 60 } });
    const { client: alice, control, sleeps } = simClockClient(server, "key-alice-0001");
    for (let i = 0; i < 3; i++) await alice.getModels();
    expect(sleeps).toEqual([]);
    await expect(alice.getModels()).resolves.toEqual({ models: [] });
    // 1+2+4+8+16 = 31 s stays in the first window; 32 s more reaches the next one.
    expect(sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
    expect((await control.clock()).now).toBe("2026-01-05T00:01:03.000Z");
  });

  it("throws the server's 429 (no Retry-After, the ceiling in its detail) once the retries run out", async () => {
    const server = await serve({ rate_limit: { ceiling: 3, window_seconds: 60 } });
    const sleeps: number[] = [];
    const alice = new BasecampClient({ baseUrl: server.url, apiKey: "key-alice-0001", maxRetries: 2, sleep: async (ms) => void sleeps.push(ms) });
    for (let i = 0; i < 3; i++) await alice.getStarted();
    const error = await alice.getStarted().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: "rate_limited", retryAfter: null, detail: { ceiling: 3, window_seconds: 60 } });
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it("gets through the access gate only with both gate headers", async () => {
    const gate = { client_id: "svc.basecamp", client_secret: "gate-secret-1" };
    const server = await serve({ gate });
    const bounced = new BasecampClient({ baseUrl: server.url, apiKey: "key-alice-0001", cfAccessClientId: gate.client_id });
    await expect(bounced.getStarted()).rejects.toMatchObject({
      status: 302,
      code: "access_gate",
      message: "the access gate bounced the request: set CF_ACCESS_CLIENT_ID / CF_ACCESS_CLIENT_SECRET",
    });
    const admitted = new BasecampClient({
      baseUrl: server.url,
      apiKey: "key-alice-0001",
      cfAccessClientId: gate.client_id,
      cfAccessClientSecret: gate.client_secret,
    });
    await expect(admitted.getStarted()).resolves.toMatchObject({ agent: "alice", scope: "tournament" });
  });

  it("refuses a bad key with the service's 401", async () => {
    const server = await serve({});
    const stranger = new BasecampClient({ baseUrl: server.url, apiKey: "not-a-key-at-all" });
    await expect(stranger.getModels()).rejects.toMatchObject({ status: 401, code: "invalid_api_key", message: "Invalid API key" });
    await expect(stranger.whoami()).resolves.toMatchObject({ authenticated: false });
  });
});
