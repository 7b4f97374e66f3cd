/**
 * The event plan: an optional `pre_event` phase (the event announced, not yet open), a build phase,
 * an optional stake window, then N rounds each followed by a fenced round boundary, then `done`. An
 * event round is scored at its boundary, so its `resolves_at` is its close.
 */
import { atLeastOneInteger, minutes, parseUtc } from "./cadence-input.js";
import { phasesFrom, type Phase, type PhaseMark, type Schedule } from "./cadence-schedule.js";

export interface EventPlan {
  /** ISO datetime the build phase starts: the event opens. */
  start: string;
  /** Minutes of `pre_event` before `start`, where a clock (served or replayed) begins; absent or 0 = none. */
  pre_event_minutes?: number;
  build_phase_minutes: number;
  /** 0 = no stake window. */
  stake_window_minutes: number;
  n_rounds: number;
  /** One length for all rounds, or one per round. */
  round_minutes: number | number[];
  /** The fenced boundary after each round (the last one before `done`). */
  boundary_minutes: number;
}

export function eventSchedule(plan: EventPlan): Schedule {
  const pre = minutes("pre_event_minutes", plan.pre_event_minutes ?? 0, true);
  let t = parseUtc("start", plan.start) - pre;
  const n = atLeastOneInteger("n_rounds", plan.n_rounds);
  const build = minutes("build_phase_minutes", plan.build_phase_minutes);
  const stake = minutes("stake_window_minutes", plan.stake_window_minutes, true);
  const boundary = minutes("boundary_minutes", plan.boundary_minutes, true);
  const lengths = roundLengths(plan.round_minutes, n);

  const marks: PhaseMark[] = [];
  const mark = (name: string, ms: number, open_window: string | null = null): void => {
    marks.push({ name, at: t, open_window });
    t += ms;
  };
  mark("pre_event", pre);
  mark("build", build);
  mark("stake", stake);
  const rounds = lengths.map((ms, i) => {
    const window = `round_${i + 1}`;
    const open_at = t;
    mark(window, ms, window);
    const close_at = t;
    mark(`${window}_boundary`, boundary);
    return { window, open_at, close_at, resolves_at: close_at };
  });
  mark("done", 0);
  return { kind: "event", phases: phasesFrom(marks), rounds };
}

/** The event's build phase: where it opens (after the `pre_event` phase, when it has one). */
export function buildPhase(s: Schedule): Phase {
  return s.phases.find((p) => p.name === "build") as Phase;
}

function roundLengths(round_minutes: number | number[], n: number): number[] {
  if (!Array.isArray(round_minutes)) return new Array<number>(n).fill(minutes("round_minutes", round_minutes));
  if (round_minutes.length !== n) {
    throw new Error(`round_minutes: expected one length per round (${n}), got ${round_minutes.length}`);
  }
  return round_minutes.map((m, i) => minutes(`round_minutes[${i}]`, m));
}
