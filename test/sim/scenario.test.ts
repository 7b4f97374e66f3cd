import { describe, expect, it } from "vitest";
import { loadScenario, parseScenario, ScenarioError } from "../../sim/scenario.js";
import { smallEvent } from "../helpers/small-event.js";
import { smallScenario } from "../helpers/small-scenario.js";

describe("scenario files", () => {
  it("load the shipped scenarios", () => {
    expect(loadScenario("scenarios/default-tournament.json").agents).toHaveLength(20);
  });

  it("name the bad field and what was expected", () => {
    const raw = JSON.parse(JSON.stringify(smallScenario()));
    raw.calendar.close_time = "25:00";
    expect(() => parseScenario(raw, "s.json")).toThrow(/calendar\.close_time: expected a time 'HH:MM' \(UTC\)/);
    raw.calendar.close_time = "16:00";
    raw.agents[0].params = { lambda: -1 };
    expect(() => parseScenario(raw, "s.json")).toThrow(/agents\[0\]\.params\.lambda: /);
    raw.agents[0].params = {};
    raw.agents[1].strategy = "nope";
    expect(() => parseScenario(raw, "s.json")).toThrow(/agents\[1\]\.strategy: unknown strategy 'nope'/);
    raw.agents[1].strategy = "event_ridge";
    expect(() => parseScenario(raw, "s.json")).toThrow(ScenarioError);
    expect(() => parseScenario(raw, "s.json")).toThrow(/plays events, and this scenario is a tournament$/);
    const event = JSON.parse(JSON.stringify(smallEvent()));
    event.agents[0].strategy = "random";
    expect(() => parseScenario(event, "e.json")).toThrow(/plays tournaments, and this scenario is an event$/);
  });

  it("change only the scoring settings an action names", () => {
    const s = smallScenario({ actions: [{ at: "2026-01-05T12:00:00Z", set_scoring: { clip: 0.1 } }] });
    expect(s.actions[0]).toEqual({ at: "2026-01-05T12:00:00Z", set_scoring: { clip: 0.1 } });
  });

  it("check a set_fault action's round at load, naming the action", () => {
    const at = "2026-01-05T12:00:00Z";
    expect(() => smallScenario({ actions: [{ at, set_fault: { fault: "empty_live", on: true } }] })).toThrow(
      "actions[0].set_fault.round: empty_live needs a round number from 1 to 3",
    );
    expect(() => smallScenario({ actions: [{ at, set_fault: { fault: "missing_benchmark", round: 9, on: true } }] })).toThrow(
      "actions[0].set_fault.round: missing_benchmark needs a round number from 1 to 3",
    );
    expect(() => smallScenario({ actions: [{ at, set_fault: { fault: "diagnostics_maintenance", round: 1, on: true } }] })).toThrow(
      "actions[0].set_fault.round: diagnostics_maintenance is not tied to a round",
    );
    expect(() => smallScenario({ actions: [{ at, set_fault: { fault: "compute_paused", round: 1, on: true } }] })).toThrow(
      "actions[0].set_fault.round: compute_paused is not tied to a round",
    );
    expect(smallScenario({ actions: [{ at, set_fault: { fault: "empty_live", round: 2, on: true } }] }).actions).toHaveLength(1);
  });

  it("reads an event's compute block with the default rate card, and refuses a budget that is not a decimal string", () => {
    expect(smallEvent({}, { compute: { budget_usd: "5" } }).event?.compute).toEqual({
      budget_usd: "5",
      rate_card_usd_per_hr: { CPU: "0.10", T4: "0.50", A10G: "1.10", A100: "1.79" },
    });
    expect(smallEvent({}, { compute: { budget_usd: "5", rate_card_usd_per_hr: { A100: "3" } } }).event?.compute?.rate_card_usd_per_hr.A100).toBe("3");
    expect(() => smallEvent({}, { compute: { budget_usd: 5 } })).toThrow("event.compute.budget_usd");
    expect(smallEvent().event?.compute).toBeUndefined();
  });
});
