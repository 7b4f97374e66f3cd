import { describe, expect, it } from "vitest";
import { BasecampClient, SimControl } from "../../src/sdk/client.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { until } from "../helpers/until.js";
import { serveScenario } from "./server.js";

const YOU = "key-you-00000008";

/** The small scenario plus your seat: its own strategy sits every round out, so only your client plays it. */
function withYourSeat() {
  const base = smallScenario();
  return smallScenario({
    agents: [...base.agents, { name: "you", key: YOU, strategy: "external" }],
  });
}

describe("serve --with-agents: your client among the built-in agents", () => {
  it("submits each round over HTTP while the built-ins act on the served clock; the standings rank you among them", async () => {
    const lines: string[] = [];
    const s = await serveScenario(withYourSeat(), { withAgents: true, log: (line) => lines.push(line) });
    const you = new BasecampClient({ baseUrl: s.url, apiKey: YOU, maxRetries: 0 });
    const control = new SimControl({ baseUrl: s.url, organiserKey: s.organiserKey, maxRetries: 0 });
    const model = await you.createModel({ name: "your-model" });

    // The organiser's next phase, until it answers that every round has settled.
    const nextPhase = () =>
      control.advance({ to: "next_phase" }).then(
        (moved) => moved.cadence,
        (e: unknown) => {
          expect(e).toMatchObject({ status: 422, code: "clock_no_next_phase" });
          return null;
        },
      );
    const submitted: string[] = [];
    for (let cadence: { open_window: string | null } | null = (await control.clock()).cadence; cadence !== null; cadence = await nextPhase()) {
      const exped = cadence.open_window;
      if (exped === null || submitted.includes(exped)) continue;
      const { instrument_ids } = await you.instruments();
      const predictions = instrument_ids.map((instrument_id, i) => ({ instrument_id, prediction: ((i * 7) % 10) / 10 }));
      await you.submit({ model_id: model.id, exped, predictions });
      submitted.push(exped);
    }

    expect(submitted).toHaveLength(3);
    const standings = await you.standings();
    expect(standings.rounds_settled).toBe(3);
    const rows = new Map(standings.rows.map((r) => [r.model, r]));
    expect(rows.get("your-model")).toMatchObject({ model_id: model.id, rounds_scored: 3 });
    // The built-ins that enter every round in time: ridge, benchmark copier, random, noisy oracle.
    for (const agent of ["alice", "bob", "carol", "dave"]) expect(rows.get(agent)?.rounds_scored, agent).toBe(3);
    expect(standings.rows.map((r) => r.rank)).toEqual(standings.rows.map((_, i) => i + 1));
    // The server logged what the agents did, one line each (eve refused: an event key); your external seat never acts.
    expect(lines.filter((line) => / you exped_/.test(line))).toEqual([]);
    expect(lines.some((line) => / eve exped_\d+: refused 403 /.test(line))).toBe(true);
  });
});

describe("serve --with-agents on a realtime clock", () => {
  it("lets the agents act from the sync timer, with no request at all", async () => {
    // One simulated day per wall-clock second: the season and its last resolution take about four seconds.
    const s = await serveScenario(withYourSeat(), { withAgents: true, clock: "realtime", speed: 86_400, syncEveryMs: 10 });
    const settled = () => (s.service.ctx.db.prepare("SELECT COUNT(*) AS n FROM rounds WHERE status = 'settled'").get() as { n: number }).n;
    await until(() => settled() === 3);
    const standings = await new BasecampClient({ baseUrl: s.url, apiKey: YOU, maxRetries: 0 }).standings();
    // The benchmark copier acts inside each window: a timer's lag of a few simulated hours cannot make it miss.
    expect(standings.rows.find((r) => r.model === "bob")?.rounds_scored).toBeGreaterThanOrEqual(1);
  });
});
