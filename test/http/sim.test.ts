import { describe, expect, it } from "vitest";
import { ALICE, ORGANISER, refusal, serveScenario, testServer } from "./server.js";
import { smallEvent } from "../helpers/small-event.js";
import { until } from "../helpers/until.js";

describe("organiser clock control (/sim/v1)", () => {
  it("needs the organiser key", async () => {
    const s = await testServer();
    expect(refusal(await s.get("/sim/v1/clock"))).toMatchObject({ status: 401, code: "missing_api_key" });
    expect(refusal(await s.get("/sim/v1/clock", ALICE))).toEqual({
      status: 403,
      code: "organiser_key_required",
      message: "This needs the scenario's organiser key.",
    });
    expect(refusal(await s.call("POST", "/sim/v1/clock/advance", { key: ALICE, body: { seconds: 60 } }))).toMatchObject({ status: 403 });
  });

  it("reads and advances a manual clock by seconds, to the next phase, or until an instant; never backwards", async () => {
    const s = await testServer();
    const clock = await s.get("/sim/v1/clock", ORGANISER);
    expect(clock.json).toMatchObject({ now: "2026-01-05T00:00:00.000Z", mode: "manual", speed: 0, cadence: { phase: "round_open" } });
    const bySeconds = await s.advance({ seconds: 3600 });
    expect(bySeconds.json).toMatchObject({ now: "2026-01-05T01:00:00.000Z", transitions: [] });
    const toPhase = await s.advance({ to: "next_phase" });
    expect(toPhase.json).toMatchObject({ now: "2026-01-05T16:00:00.000Z", cadence: { intake_fenced: true } });
    expect(toPhase.json.transitions).toEqual([{ kind: "close", exped: "exped_0021", t: "2026-01-05T16:00:00.000Z" }]);
    const back = await s.advance({ until: "2026-01-05T12:00:00Z" });
    expect(refusal(back)).toEqual({
      status: 422,
      code: "clock_backwards",
      message: "The clock never moves backwards: 2026-01-05T12:00:00.000Z is before now (2026-01-05T16:00:00.000Z).",
    });
    expect(back.json.detail.loc).toEqual(["body", "until"]);
    expect((await s.advance({ seconds: -5 })).status).toBe(422);
    expect((await s.advance({ to: "tomorrow" })).json.detail.code).toBe("validation_error");
    const until = await s.advance({ until: "2026-01-06T00:00:00Z" });
    expect(until.json.transitions.map((t: { kind: string; exped: string }) => `${t.kind}:${t.exped}`)).toEqual([
      "settle:exped_0021",
      "open:exped_0022",
    ]);
    expect((await s.get("/sim/v1/clock", ORGANISER)).json.now).toBe("2026-01-06T00:00:00.000Z");
  });

  it("moves to the next phase, and past the season's close to each resolution still to come, until every round has settled", async () => {
    // Rounds Mon to Wed; each resolves two slots on, so rounds 2 and 3 resolve after the season closes.
    const s = await testServer({ calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 2 } });
    const stops: string[] = [];
    for (let i = 0; i < 20; i++) {
      const moved = await s.advance({ to: "next_phase" });
      if (moved.status !== 200) {
        expect(refusal(moved)).toEqual({
          status: 422,
          code: "clock_no_next_phase",
          message: "The season is in its last phase (season_closed) and every round has settled; there is no next phase to advance to.",
        });
        break;
      }
      const kinds = moved.json.transitions.map((t: { kind: string; exped: string }) => `${t.kind}:${t.exped}`).join(" ");
      stops.push(`${moved.json.now} ${moved.json.cadence.phase} ${kinds}`);
    }
    expect(stops).toEqual([
      "2026-01-05T16:00:00.000Z closed close:exped_0021",
      "2026-01-06T00:00:00.000Z round_open open:exped_0022",
      "2026-01-06T16:00:00.000Z closed close:exped_0022",
      "2026-01-07T00:00:00.000Z round_open settle:exped_0021 open:exped_0023",
      "2026-01-07T16:00:00.000Z season_closed close:exped_0023",
      "2026-01-08T00:00:00.000Z season_closed settle:exped_0022",
      "2026-01-09T00:00:00.000Z season_closed settle:exped_0023",
    ]);
    expect((await s.get("/api/v1/schedule", ALICE)).json.rounds.map((r: { status: string }) => r.status)).toEqual(["settled", "settled", "settled"]);
  });

  it("refuses an advance past the last instant a date can show (422 naming the field); the clock stays where it was", async () => {
    const s = await testServer();
    for (const seconds of [9e12, 1e300]) {
      const a = await s.advance({ seconds });
      expect(refusal(a)).toEqual({
        status: 422,
        code: "validation_error",
        message: "seconds: the clock can go no later than 9999-12-31T23:59:59.999Z",
      });
      expect(a.json.detail.loc).toEqual(["body", "seconds"]);
    }
    expect((await s.get("/sim/v1/clock", ORGANISER)).json.now).toBe("2026-01-05T00:00:00.000Z");
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(200);
    const last = await s.advance({ until: "9999-12-31T23:59:59.999Z" });
    expect(last.json.now).toBe("9999-12-31T23:59:59.999Z");
    expect(refusal(await s.advance({ seconds: 0.001 }))).toMatchObject({ status: 422, code: "validation_error" });
    expect((await s.get("/api/v1/status", ALICE)).status).toBe(200);
  });

  it("settles rounds into standings, round boards and the benchmark board; faults and scoring changes apply", async () => {
    const s = await testServer();
    await s.post("/api/v1/models", { name: "alice-model" }, ALICE);
    const { exped, instrument_ids } = (await s.get("/api/v1/futures/rounds/current/instruments", ALICE)).json;
    const predictions = instrument_ids.map((instrument_id: string, i: number) => ({ instrument_id, prediction: (i % 10) / 10 }));
    expect((await s.post("/api/v1/futures/submit/v2", { model_id: "alice-model", exped, predictions }, ALICE)).status).toBe(201);

    const settings = await s.call("POST", "/sim/v1/scoring", { key: ORGANISER, body: { clip: 0.5 } });
    expect(settings.json).toMatchObject({ clip: 0.5, aggregate: "sum" });
    expect((await s.get("/api/v1/scoring")).json.clip).toBe(0.5);
    expect((await s.call("POST", "/sim/v1/scoring", { key: ORGANISER, body: { clip: 0 } })).json.detail.loc).toEqual(["body", "clip"]);
    expect((await s.call("POST", "/sim/v1/scoring", { key: ORGANISER, body: { clipp: 1 } })).status).toBe(422);

    const faults = await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "missing_benchmark", round: 2, on: true } });
    expect(faults.json).toEqual({ missing_benchmark_rounds: [2], empty_live_rounds: [] });
    expect((await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "missing_benchmark", round: 9, on: true } })).status).toBe(422);

    await s.advance({ until: "2026-01-07T00:00:00Z" });
    const standings = await s.get("/api/v1/futures/standings", ALICE);
    expect(standings.json).toMatchObject({ rounds_settled: 1, rank_metric: expect.any(String) });
    const board = await s.get(`/api/v1/futures/rounds/${exped}/board`, ALICE);
    expect(board.json.exped).toBe(exped);
    expect(JSON.stringify(board.json)).toContain("alice-model");
    expect(refusal(await s.get("/api/v1/futures/rounds/exped_9999/board", ALICE))).toMatchObject({ status: 404, message: "Round not found" });
    // Round 2 lost its designated benchmark: it does not settle.
    const schedule = (await s.get("/api/v1/schedule", ALICE)).json.rounds.map((r: { status: string }) => r.status);
    expect(schedule).toEqual(["settled", "unsettled", "open"]);

    const benchmarks = await s.get("/api/v1/benchmarks/board", ALICE);
    expect(benchmarks.json.rank_metric).toBe("mean_corr");
    const [entry] = benchmarks.json.models;
    expect(entry).toMatchObject({ name: "v1_designated", rounds: 1, mean_aimc: 0, sharpe: 0 });
    expect(Number.isFinite(entry.mean_corr)).toBe(true);
    expect(entry.mean_corr).not.toBe(0);
  });
});

describe("realtime clock", () => {
  it("moves rounds on its own: a timer syncs the service without any request", async () => {
    // 2 simulated days per wall-clock second.
    const s = await testServer({}, { clock: "realtime", speed: 172_800, syncEveryMs: 10 });
    const events = () => (s.service.ctx.db.prepare("SELECT COUNT(*) AS n FROM events WHERE type LIKE 'round.%'").get() as { n: number }).n;
    const before = events();
    await until(() => events() > before + 1);
    const clock = (await s.get("/sim/v1/clock", ORGANISER)).json;
    expect(clock).toMatchObject({ mode: "realtime", speed: 172_800 });
    const jumped = await s.advance({ seconds: 86_400 * 3 });
    expect(Date.parse(jumped.json.now)).toBeGreaterThanOrEqual(Date.parse(clock.now) + 86_400_000 * 3);
  });

  it("pauses and resumes: the clock stands still (clock_paused in the event cadence), then runs on from there", async () => {
    const s = await serveScenario(smallEvent(), { clock: "realtime", speed: 1_000, syncEveryMs: 10 });
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const paused = await s.call("POST", "/sim/v1/clock/pause", { key: ORGANISER });
    expect(paused.json).toMatchObject({ mode: "realtime", paused: true });
    await wait(30);
    expect((await s.get("/sim/v1/clock", ORGANISER)).json.now).toBe(paused.json.now);
    expect((await s.get("/api/v1/status", "key-ann-00000001")).json.cadence).toMatchObject({ clock_paused: true, diagnostics_maintenance: false });
    const resumed = await s.call("POST", "/sim/v1/clock/resume", { key: ORGANISER });
    expect(resumed.json.paused).toBe(false);
    expect(Date.parse(resumed.json.now)).toBeGreaterThanOrEqual(Date.parse(paused.json.now));
    await wait(30);
    expect(Date.parse((await s.get("/sim/v1/clock", ORGANISER)).json.now)).toBeGreaterThan(Date.parse(resumed.json.now));
    expect((await s.get("/api/v1/status", "key-ann-00000001")).json.cadence.clock_paused).toBe(false);
  });

  it("refuses to pause a manual clock", async () => {
    const s = await testServer();
    expect(refusal(await s.call("POST", "/sim/v1/clock/pause", { key: ORGANISER }))).toEqual({
      status: 409,
      code: "clock_not_realtime",
      message: "Only a realtime clock can be paused or resumed; a manual clock moves only when advanced.",
    });
  });
});
