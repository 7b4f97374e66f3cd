import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { BasecampClient, SimControl } from "../../src/sdk/client.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { logDigest } from "../../src/store/event-log.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario, type EngineEvent } from "../../sim/engine.js";
import type { Scenario } from "../../sim/scenario.js";
import { smallEvent } from "../helpers/small-event.js";
import { smallScenario } from "../helpers/small-scenario.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Serves `scenario` with its agents, advances phase by phase until every round has settled; the server's log lines. */
async function serveToTheEnd(scenario: Scenario): Promise<{ server: RunningServer; lines: string[]; stops: number }> {
  const lines: string[] = [];
  const server = await startServer({ scenario, port: 0, host: "127.0.0.1", clock: "manual", withAgents: true, log: (line) => lines.push(line) });
  servers.push(server);
  const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey, maxRetries: 0 });
  let stops = 0;
  for (;;) {
    try {
      await control.advance({ to: "next_phase" });
      stops++;
    } catch (e) {
      expect(e).toMatchObject({ status: 422, code: "clock_no_next_phase" });
      return { server, lines, stops };
    }
  }
}

const logLines = (events: EngineEvent[]) => events.flatMap((e) => (e.kind === "log" ? [e.line] : []));

describe("serve --with-agents", () => {
  it("advanced phase by phase to the end, gives the in-process replay's event log, byte for byte", async () => {
    // An organiser action mid-season, and agents that act late, skip or get refused.
    const scenario = smallScenario({ actions: [{ at: "2026-01-06T12:00:00.000Z", set_scoring: { weights: { corr: 2, aimc: 0, ncorr: 0 } } }] });
    const world = buildWorld(deploymentOf(scenario));
    const events: EngineEvent[] = [];
    const replay = await runScenario(scenario, { world, onEvent: (e) => events.push(e) });
    const { server, lines, stops } = await serveToTheEnd(scenario);

    expect(stops).toBe(6);
    expect(logDigest(server.service.ctx.db)).toBe(replay.digest);
    expect(lines).toEqual(logLines(events));
    expect(lines.some((line) => / refused \d{3} \w+: /.test(line))).toBe(true);
    expect(lines).toContainEqual(expect.stringMatching(/^2026-01-06T12:00:00.000Z organiser changed scoring: /));
  });

  it("does the same for an event: uploads, scoring runs and the unsealing of results at their instants", async () => {
    const scenario = smallEvent();
    const world = buildWorld(deploymentOf(scenario));
    const events: EngineEvent[] = [];
    const replay = await runScenario(scenario, { world, onEvent: (e) => events.push(e) });
    const { server, lines } = await serveToTheEnd(scenario);

    expect(logDigest(server.service.ctx.db)).toBe(replay.digest);
    expect(lines).toEqual(logLines(events));
  });

  it("plays a file strategy too: a JavaScript module's agent enters every round", async () => {
    const dir = mkdtempSync(join(tmpdir(), "basecamp-strategy-"));
    onTestFinished(() => rmSync(dir, { recursive: true }));
    const file = join(dir, "fan.mjs");
    writeFileSync(
      file,
      `export default {
        name: "fan", kind: "tournament",
        params: { safeParse: (v) => ({ success: true, data: v ?? {} }) },
        actAt: (slot) => slot.open_at + 60_000,
        act: async (ctx, slot) => {
          const model = await ctx.client.createModel({ name: ctx.model });
          const { instrument_ids } = await ctx.client.instruments();
          const predictions = instrument_ids.map((instrument_id, i) => ({ instrument_id, prediction: (i % 5) / 5 }));
          await ctx.client.submit({ model_id: model.id, exped: slot.exped, predictions });
        },
      };\n`,
    );
    const base = smallScenario();
    const { server } = await serveToTheEnd(smallScenario({ agents: [...base.agents, { name: "fan", key: "key-fan-00000009", strategy: file }] }));
    const standings = await new BasecampClient({ baseUrl: server.url, apiKey: "key-fan-00000009", maxRetries: 0 }).standings();
    expect(standings.rows.find((r) => r.model === "fan")).toMatchObject({ rounds_scored: 3 });
  });

  it("without --with-agents, nobody acts: the season passes with no entries", async () => {
    const server = await startServer({ scenario: smallScenario(), port: 0, host: "127.0.0.1", clock: "manual", log: () => {} });
    servers.push(server);
    const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey, maxRetries: 0 });
    await control.advance({ until: "2026-01-09T00:00:00Z" });
    const { n } = server.service.ctx.db.prepare("SELECT COUNT(*) AS n FROM submissions").get() as { n: number };
    expect(n).toBe(0);
  });

  it("refuses a store that already holds a run", async () => {
    // A stale lineup would otherwise act again on rounds it already played.
    const dir = mkdtempSync(join(tmpdir(), "basecamp-serve-"));
    onTestFinished(() => rmSync(dir, { recursive: true }));
    const db = join(dir, "run.sqlite");
    const first = await startServer({ scenario: smallScenario(), port: 0, db, withAgents: true, log: () => {} });
    await first.close();
    await expect(startServer({ scenario: smallScenario(), port: 0, db, withAgents: true, log: () => {} })).rejects.toThrow(
      /already holds a run: --with-agents needs a fresh store/,
    );
  });
});
