import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { DESIGNATED } from "../../src/data/schema.js";
import { BasecampClient, SimControl } from "../../src/sdk/client.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario, type EngineEvent } from "../../sim/engine.js";
import { replayAgainst } from "../../sim/remote.js";
import { smallScenario } from "../helpers/small-scenario.js";

const servers: RunningServer[] = [];
const serverLog: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  expect(serverLog.splice(0), "the server logged internal errors").toEqual([]);
});

async function serve(scenario = smallScenario()): Promise<RunningServer> {
  const server = await startServer({ scenario, port: 0, host: "127.0.0.1", clock: "manual", log: (line) => serverLog.push(line) });
  servers.push(server);
  return server;
}

/** Any retry in these tests is a bug: the scripted round never hits a fence, a full lane or the rate limit. */
const noRetry = async (ms: number) => {
  throw new Error(`unexpected retry after ${ms} ms`);
};

describe("one round by hand over HTTP", () => {
  it("opens, takes a submission (and its replacement), closes to a final entry, resolves and boards it", async () => {
    // Rounds open at 08:00, so the season starts fenced, before round 1.
    const scenario = smallScenario({ calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1, open_time: "08:00" } });
    const server = await serve(scenario);
    const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey, sleep: noRetry });
    const alice = new BasecampClient({ baseUrl: server.url, apiKey: "key-alice-0001", sleep: noRetry });

    expect(await control.clock()).toMatchObject({ now: "2026-01-05T00:00:00.000Z", mode: "manual" });
    const before = await alice.getStarted();
    expect(before).toMatchObject({ scope: "tournament", agent: "alice", lane: "futures_submit_v2" });
    expect(before.cadence).toMatchObject({ open_window: null, intake_fenced: true, phase_ends_at: "2026-01-05T08:00:00.000Z" });
    await expect(alice.instruments()).rejects.toMatchObject({ status: 404, code: "no_active_round" });

    const opened = await control.advance({ to: "next_phase" });
    const exped = opened.cadence.open_window as string;
    expect(exped).toMatch(/^exped_\d{4}$/);
    expect(opened).toMatchObject({ now: "2026-01-05T08:00:00.000Z", transitions: [{ kind: "open", exped, t: "2026-01-05T08:00:00.000Z" }] });

    const round = await alice.currentRound();
    expect(round).toMatchObject({ exped, submission_window: "open", close_at: "2026-01-05T16:00:00.000Z" });
    const universe = await alice.instruments();
    expect(universe).toMatchObject({ exped, data_datestamp: "20260105" });
    const live = await alice.downloadDataset("live");
    expect(live.ids.length).toBe(round.universe_size);
    expect([...live.ids].sort()).toEqual([...universe.instrument_ids].sort());
    expect(new Set(live.exped)).toEqual(new Set([exped]));

    const model = await alice.createModel({ name: "alice" });
    expect(model).toMatchObject({ name: "alice", status: "created", archived: false });
    expect(await alice.createModel({ name: "alice" })).toMatchObject({ id: model.id, status: "already_exists" });

    // Copy the designated benchmark: its AIMC is 0 by construction, which the board must show.
    const bench = await alice.downloadBenchmark("futures", "live");
    const byId = new Map(bench.ids.map((id, i) => [id, bench.columns[DESIGNATED][i]]));
    const entry = {
      model_id: model.id,
      exped,
      predictions: universe.instrument_ids.map((instrument_id) => ({ instrument_id, prediction: byId.get(instrument_id) as number })),
    };
    const first = await alice.submit(entry);
    expect(first).toMatchObject({ model_id: model.id, exped, replaced: false, revision: 1, n_predictions: universe.instrument_ids.length });
    const replaced = await alice.submit(entry);
    expect(replaced).toMatchObject({ submission_id: first.submission_id, replaced: true, revision: 2 });

    const closed = await control.advance({ to: "next_phase" });
    expect(closed.transitions).toEqual([{ kind: "close", exped, t: "2026-01-05T16:00:00.000Z" }]);
    await expect(alice.submit(entry)).rejects.toMatchObject({
      status: 409,
      code: "submission_final",
      message: "Submission already exists for this model and exped.",
    });

    const resolved = await control.advance({ until: round.resolves_at });
    expect(resolved.transitions).toContainEqual({ kind: "settle", exped, t: round.resolves_at });
    const board = await alice.roundBoard(exped);
    expect(board.exped).toBe(exped);
    const row = board.rows.find((r) => r.model_id === model.id);
    expect(row).toMatchObject({ model: "alice", rounds_scored: 1, aimc: 0 });
    const standings = await alice.standings();
    expect(standings.rounds_settled).toBe(1);
    expect(standings.rows.find((r) => r.model_id === model.id)?.total).toBe(row?.total);
  });
});

describe("replaying a scenario against a running server", () => {
  it("gives the in-process replay's standings row for row, and the same log", async () => {
    // An organiser action mid-season: round 2 settles under other weights than round 1.
    const scenario = smallScenario({ actions: [{ at: "2026-01-06T12:00:00.000Z", set_scoring: { weights: { corr: 2, aimc: 0, ncorr: 0 } } }] });
    const world = buildWorld(deploymentOf(scenario));
    const local: EngineEvent[] = [];
    const inProcess = await runScenario(scenario, { world, onEvent: (e) => local.push(e) });
    const server = await serve(scenario);
    const remote: EngineEvent[] = [];
    const standings = await replayAgainst(scenario, { baseUrl: server.url, world, onEvent: (e) => remote.push(e), http: { sleep: noRetry } });

    expect(standings.rounds_settled).toBe(3);
    expect(standings.rows.length).toBeGreaterThanOrEqual(4);
    expect(standings).toEqual(inProcess.board);
    const lines = (events: EngineEvent[]) => events.flatMap((e) => (e.kind === "log" ? [e.line] : []));
    expect(lines(remote)).toEqual(lines(local));
    expect(lines(remote).some((line) => / refused \d{3} \w+: /.test(line))).toBe(true);
    expect(lines(remote)).toContainEqual(expect.stringMatching(/^2026-01-06T12:00:00.000Z organiser changed scoring: \{"weights":\{"corr":2,"aimc":0,"ncorr":0\}/));
    const settledAt = (events: EngineEvent[]) => events.flatMap((e) => (e.kind === "settled" ? [e.exped] : []));
    expect(settledAt(remote)).toEqual(settledAt(local));
    expect(remote.filter((e) => e.kind === "progress")).toEqual(local.filter((e) => e.kind === "progress"));
  });

  it("meets the same rate-limit refusals as the in-process replay", async () => {
    // One call per key and endpoint per day: a ridge's second download (train after live) is refused.
    const scenario = smallScenario({ rate_limit: { ceiling: 1, window_seconds: 86_400 } });
    const world = buildWorld(deploymentOf(scenario));
    const local: string[] = [];
    const inProcess = await runScenario(scenario, { world, onEvent: (e) => e.kind === "log" && local.push(e.line) });
    const server = await serve(scenario);
    const remote: string[] = [];
    const standings = await replayAgainst(scenario, { baseUrl: server.url, world, onEvent: (e) => e.kind === "log" && remote.push(e.line) });
    expect(remote.filter((line) => / refused 429 rate_limited: /.test(line)).length).toBeGreaterThan(0);
    expect(remote).toEqual(local);
    expect(standings).toEqual(inProcess.board);
  });

  it("refuses a server that runs another scenario, or one whose season has already moved on", async () => {
    const scenario = smallScenario();
    const server = await serve(scenario);
    const other = smallScenario({ calendar: { start: "2026-02-02", n_rounds: 3, resolve_after_rounds: 1 } });
    await expect(replayAgainst(other, { baseUrl: server.url })).rejects.toThrow(/serves another schedule/);
    await new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey }).advance({ seconds: 60 });
    await expect(replayAgainst(scenario, { baseUrl: server.url })).rejects.toThrow(/past the season's first step: replay needs a fresh server/);
  });
});
