import { describe, expect, it } from "vitest";
import { defaultTournamentCalendar, eventSchedule, phaseAt, tournamentSchedule, type EventPlan } from "../../src/domain/cadence.js";

const at = (s: string): number => Date.parse(s);
const isoOf = (t: number): string => new Date(t).toISOString();
const exped = (i: number): string => `E${i}`;
const season = (start: string, n_rounds: number) => tournamentSchedule({ ...defaultTournamentCalendar, start, n_rounds }, exped);

describe("tournament calendar", () => {
  it("opens one round per weekday at 00:00 and closes it at 16:00 UTC, skipping the weekend", () => {
    const s = season("2026-01-05", 10);
    expect(s.rounds.map((r) => r.window)).toEqual(["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10"]);
    expect(s.rounds.map((r) => isoOf(r.open_at).slice(0, 10))).toEqual([
      "2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09",
      "2026-01-12", "2026-01-13", "2026-01-14", "2026-01-15", "2026-01-16",
    ]);
    for (const r of s.rounds) {
      expect(isoOf(r.open_at).slice(10)).toBe("T00:00:00.000Z");
      expect(r.close_at - r.open_at).toBe(16 * 3600_000);
    }
  });

  it("resolves round r at the open of slot r + 4, counting slots past the season", () => {
    const s = season("2026-01-05", 10);
    expect(isoOf(s.rounds[0].resolves_at)).toBe("2026-01-09T00:00:00.000Z"); // slot 5: Friday
    expect(isoOf(s.rounds[1].resolves_at)).toBe("2026-01-12T00:00:00.000Z"); // slot 6: next Monday
    expect(isoOf(s.rounds[9].resolves_at)).toBe("2026-01-22T00:00:00.000Z"); // slot 14: Thursday after
    const lag1 = tournamentSchedule({ ...defaultTournamentCalendar, start: "2026-01-05", n_rounds: 5, resolve_after_rounds: 1 }, exped);
    expect(isoOf(lag1.rounds[4].resolves_at)).toBe("2026-01-12T00:00:00.000Z");
  });

  it("reads pre_season, round_open, closed and season_closed off the clock", () => {
    const s = season("2026-01-03", 5); // a Saturday: two days of pre-season
    expect(s.phases.map((p) => p.name)).toEqual([
      "pre_season", "round_open", "closed", "round_open", "closed", "round_open", "closed",
      "round_open", "closed", "round_open", "season_closed",
    ]);
    expect(phaseAt(s, at("2026-01-03T12:00:00Z"))).toEqual({
      phase: "pre_season",
      open_window: null,
      phase_ends_at: "2026-01-05T00:00:00.000Z",
      seconds_until_next_phase: 36 * 3600,
      intake_fenced: true,
    });
    expect(phaseAt(s, at("2026-01-07T15:59:59.500Z"))).toEqual({
      phase: "round_open",
      open_window: "E3",
      phase_ends_at: "2026-01-07T16:00:00.000Z",
      seconds_until_next_phase: 1,
      intake_fenced: false,
    });
    expect(phaseAt(s, at("2026-01-07T16:00:00Z")).phase).toBe("closed");
    expect(phaseAt(s, at("2026-01-09T16:00:00Z"))).toEqual({
      phase: "season_closed",
      open_window: null,
      phase_ends_at: null,
      seconds_until_next_phase: null,
      intake_fenced: true,
    });
  });

  it("has no empty pre-season when round 1 opens at the start day's midnight", () => {
    const s = season("2026-01-05", 1);
    expect(s.phases.map((p) => p.name)).toEqual(["round_open", "season_closed"]);
    expect(phaseAt(s, at("2026-01-01T00:00:00Z")).open_window).toBe("E1"); // before the first phase
  });

  it("reads a start datetime without a zone as UTC and considers its whole day", () => {
    const s = season("2026-01-05T10:30", 1);
    expect(isoOf(s.rounds[0].open_at)).toBe("2026-01-05T00:00:00.000Z");
  });

  it("honours custom weekdays and window times", () => {
    const s = tournamentSchedule(
      { start: "2026-01-05", n_rounds: 3, weekdays: [3], open_time: "09:30", close_time: "17:45", resolve_after_rounds: 2 },
      exped,
    );
    expect(s.rounds.map((r) => [isoOf(r.open_at), isoOf(r.close_at), isoOf(r.resolves_at)])).toEqual([
      ["2026-01-07T09:30:00.000Z", "2026-01-07T17:45:00.000Z", "2026-01-21T09:30:00.000Z"],
      ["2026-01-14T09:30:00.000Z", "2026-01-14T17:45:00.000Z", "2026-01-28T09:30:00.000Z"],
      ["2026-01-21T09:30:00.000Z", "2026-01-21T17:45:00.000Z", "2026-02-04T09:30:00.000Z"],
    ]);
    expect(s.phases[0]).toEqual({ name: "pre_season", start: at("2026-01-05T00:00:00Z"), end: at("2026-01-07T09:30:00Z"), open_window: null });
  });
});

describe("event plan", () => {
  const plan: EventPlan = {
    start: "2026-03-01T09:00:00Z",
    build_phase_minutes: 35,
    stake_window_minutes: 0,
    n_rounds: 4,
    round_minutes: 7,
    boundary_minutes: 3,
  };

  it("runs build 35 min, then 4 rounds of 7 min each with a 3 min boundary, then done", () => {
    const s = eventSchedule(plan);
    expect(s.phases.map((p) => [p.name, p.open_window, isoOf(p.start).slice(11, 16)])).toEqual([
      ["build", null, "09:00"],
      ["round_1", "round_1", "09:35"],
      ["round_1_boundary", null, "09:42"],
      ["round_2", "round_2", "09:45"],
      ["round_2_boundary", null, "09:52"],
      ["round_3", "round_3", "09:55"],
      ["round_3_boundary", null, "10:02"],
      ["round_4", "round_4", "10:05"],
      ["round_4_boundary", null, "10:12"],
      ["done", null, "10:15"],
    ]);
    expect(s.rounds[3]).toEqual({
      window: "round_4",
      open_at: at("2026-03-01T10:05:00Z"),
      close_at: at("2026-03-01T10:12:00Z"),
      resolves_at: at("2026-03-01T10:12:00Z"),
    });
    expect(phaseAt(s, at("2026-03-01T09:47:30.500Z"))).toEqual({
      phase: "round_2",
      open_window: "round_2",
      phase_ends_at: "2026-03-01T09:52:00.000Z",
      seconds_until_next_phase: 270,
      intake_fenced: false,
    });
    expect(phaseAt(s, at("2026-03-02T00:00:00Z")).phase).toBe("done");
  });

  it("adds a stake window when asked, drops zero-length boundaries, and takes per-round lengths", () => {
    const s = eventSchedule({ ...plan, stake_window_minutes: 10, boundary_minutes: 0, n_rounds: 2, round_minutes: [5, 20] });
    expect(s.phases.map((p) => [p.name, isoOf(p.start).slice(11, 16)])).toEqual([
      ["build", "09:00"],
      ["stake", "09:35"],
      ["round_1", "09:45"],
      ["round_2", "09:50"],
      ["done", "10:10"],
    ]);
    expect(phaseAt(s, at("2026-03-01T09:40:00Z")).intake_fenced).toBe(true);
  });
});

describe("input checks name the bad field", () => {
  const cal = { ...defaultTournamentCalendar, start: "2026-01-05", n_rounds: 5 };
  const plan: EventPlan = { start: "2026-03-01T09:00:00Z", build_phase_minutes: 35, stake_window_minutes: 0, n_rounds: 4, round_minutes: 7, boundary_minutes: 3 };
  it.each([
    [{ n_rounds: 0 }, /^n_rounds:/],
    [{ n_rounds: 1.5 }, /^n_rounds:/],
    [{ start: "05/01/2026" }, /^start:/],
    [{ start: "2026-02-30" }, /^start:/],
    [{ start: "2026-13-01T00:00:00Z" }, /^start:/],
    [{ weekdays: [] }, /^weekdays:/],
    [{ weekdays: [1, 7] }, /^weekdays:/],
    [{ open_time: "9:00" }, /^open_time:/],
    [{ close_time: "24:00" }, /^close_time:/],
    [{ open_time: "16:00", close_time: "16:00" }, /^close_time: must be after open_time/],
    [{ resolve_after_rounds: 0 }, /^resolve_after_rounds:/],
  ])("tournament %j", (bad, message) => {
    expect(() => tournamentSchedule({ ...cal, ...bad }, exped)).toThrow(message);
  });
  it.each([
    [{ start: "tomorrow" }, /^start:/],
    [{ n_rounds: 0 }, /^n_rounds:/],
    [{ build_phase_minutes: 0 }, /^build_phase_minutes:/],
    [{ stake_window_minutes: -1 }, /^stake_window_minutes:/],
    [{ boundary_minutes: Number.NaN }, /^boundary_minutes:/],
    [{ round_minutes: 0 }, /^round_minutes:/],
    [{ round_minutes: [7, 7, 7] }, /^round_minutes: expected one length per round \(4\), got 3/],
    [{ round_minutes: [7, 7, -7, 7] }, /^round_minutes\[2\]:/],
  ])("event %j", (bad, message) => {
    expect(() => eventSchedule({ ...plan, ...bad })).toThrow(message);
  });
});
