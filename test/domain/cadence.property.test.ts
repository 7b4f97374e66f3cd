import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventSchedule, phaseAt, tournamentSchedule, type EventPlan, type Schedule, type TournamentCalendar } from "../../src/domain/cadence.js";

const DAY = 86_400_000;
const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

const calendar: fc.Arbitrary<TournamentCalendar> = fc
  .record({
    day: fc.integer({ min: 18_000, max: 22_000 }), // days since 1970, 2019..2030
    n_rounds: fc.integer({ min: 1, max: 30 }),
    weekdays: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
    times: fc.uniqueArray(fc.integer({ min: 0, max: 24 * 60 - 1 }), { minLength: 2, maxLength: 2 }),
    resolve_after_rounds: fc.integer({ min: 1, max: 10 }),
  })
  .map(({ day, n_rounds, weekdays, times, resolve_after_rounds }) => {
    const [open, close] = [...times].sort((a, b) => a - b);
    return {
      start: new Date(day * DAY).toISOString().slice(0, 10),
      n_rounds,
      weekdays,
      open_time: hhmm(open),
      close_time: hhmm(close),
      resolve_after_rounds,
    };
  });

const plan: fc.Arbitrary<EventPlan> = fc.integer({ min: 1, max: 12 }).chain((n_rounds) =>
  fc.record({
    start: fc.integer({ min: 18_000 * DAY, max: 22_000 * DAY }).map((t) => new Date(t).toISOString()),
    build_phase_minutes: fc.integer({ min: 1, max: 600 }),
    stake_window_minutes: fc.integer({ min: 0, max: 60 }),
    n_rounds: fc.constant(n_rounds),
    round_minutes: fc.oneof(
      fc.integer({ min: 1, max: 240 }),
      fc.array(fc.double({ min: 0.5, max: 240, noNaN: true }), { minLength: n_rounds, maxLength: n_rounds }),
    ),
    boundary_minutes: fc.integer({ min: 0, max: 30 }),
  }),
);

const schedules: fc.Arbitrary<Schedule> = fc.oneof(
  calendar.map((c) => tournamentSchedule(c, (i) => `E${i}`)),
  plan.map(eventSchedule),
);

/** A time from a little before the schedule to a little after its last round resolves. */
const withTime = schedules.chain((s) => {
  const from = s.phases[0].start - DAY;
  const to = s.rounds[s.rounds.length - 1].resolves_at + DAY;
  return fc.tuple(fc.constant(s), fc.integer({ min: from, max: to }));
});

describe("cadence invariants", () => {
  it("phases are non-empty, contiguous, and only the last is open-ended", () => {
    fc.assert(
      fc.property(schedules, (s) => {
        s.phases.forEach((p, i) => {
          const next = s.phases[i + 1];
          if (next) expect(p.end).toBe(next.start);
          else expect(p.end).toBeNull();
          if (p.end !== null) expect(p.end).toBeGreaterThan(p.start);
        });
      }),
    );
  });

  it("phaseAt reports the phase containing t, fenced exactly when no round is open", () => {
    fc.assert(
      fc.property(withTime, ([s, t]) => {
        const c = phaseAt(s, t);
        const first = s.phases[0];
        const p = t < first.start ? first : s.phases.find((q) => q.start <= t && (q.end === null || t < q.end))!;
        expect(p).toBeDefined(); // the phases cover every t from the first start on
        expect(c.phase).toBe(p.name);
        expect(c.phase_ends_at).toBe(p.end === null ? null : new Date(p.end).toISOString());
        expect(c.intake_fenced).toBe(c.open_window === null);
        if (t >= first.start) {
          const open = s.rounds.find((r) => r.open_at <= t && t < r.close_at);
          expect(c.intake_fenced).toBe(open === undefined);
          expect(c.open_window).toBe(open ? open.window : null);
        }
        if (c.seconds_until_next_phase === null) expect(p.end).toBeNull();
        else expect(c.seconds_until_next_phase).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("rounds run in time order with open < close <= resolves", () => {
    fc.assert(
      fc.property(schedules, (s) => {
        s.rounds.forEach((r, i) => {
          expect(r.open_at).toBeLessThan(r.close_at);
          expect(r.close_at).toBeLessThanOrEqual(r.resolves_at);
          if (i > 0) expect(s.rounds[i - 1].close_at).toBeLessThanOrEqual(r.open_at);
        });
      }),
    );
  });

  it("each round's [open, close) is exactly one phase carrying its window", () => {
    fc.assert(
      fc.property(schedules, (s) => {
        for (const r of s.rounds) {
          const phases = s.phases.filter((p) => p.open_window === r.window);
          expect(phases).toEqual([expect.objectContaining({ start: r.open_at, end: r.close_at })]);
        }
        expect(s.phases.filter((p) => p.open_window !== null)).toHaveLength(s.rounds.length);
      }),
    );
  });

  it("a tournament has n_rounds rounds, each on a listed weekday", () => {
    fc.assert(
      fc.property(calendar, (c) => {
        const s = tournamentSchedule(c, (i) => `E${i}`);
        expect(s.rounds).toHaveLength(c.n_rounds);
        for (const r of s.rounds) expect(c.weekdays).toContain(new Date(r.open_at).getUTCDay());
        expect(s.phases[s.phases.length - 1].name).toBe("season_closed");
      }),
    );
  });
});
