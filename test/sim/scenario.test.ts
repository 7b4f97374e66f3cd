import { describe, expect, it } from "vitest";
import { loadScenario, parseScenario, ScenarioError } from "../../sim/scenario.js";
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
  });

  it("change only the scoring settings an action names", () => {
    const s = smallScenario({ actions: [{ at: "2026-01-05T12:00:00Z", set_scoring: { clip: 0.1 } }] });
    expect(s.actions[0]).toEqual({ at: "2026-01-05T12:00:00Z", set_scoring: { clip: 0.1 } });
  });
});
