/**
 * A schedule is a line of phases, each [start, end), the last one open-ended, plus the rounds whose
 * windows open and close on it. `phaseAt` reads the cadence object of the status endpoint off it.
 */
import { iso } from "./clock.js";

export interface Phase {
  name: string;
  start: number;
  /** null = forever (the last phase). */
  end: number | null;
  /** The round token open for intake during this phase, or null when intake is fenced. */
  open_window: string | null;
}

export interface ScheduledRound {
  window: string;
  open_at: number;
  close_at: number;
  resolves_at: number;
}

export interface Schedule {
  kind: "tournament" | "event";
  phases: Phase[];
  rounds: ScheduledRound[];
}

export interface CadenceState {
  phase: string;
  open_window: string | null;
  phase_ends_at: string | null;
  seconds_until_next_phase: number | null;
  intake_fenced: boolean;
}

/** A phase's name and window from the instant `at` until the next mark. */
export interface PhaseMark {
  name: string;
  at: number;
  open_window: string | null;
}

/**
 * Phases from marks in time order: each runs until the next mark, the last forever. A mark at the
 * same instant as the next one would be an empty phase that no time falls in, so it is dropped
 * (a stake window of 0 minutes, a round boundary of 0, a pre-season when round 1 opens at 00:00).
 */
export function phasesFrom(marks: PhaseMark[]): Phase[] {
  const phases: Phase[] = [];
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1].at : null;
    if (end !== m.at) phases.push({ name: m.name, start: m.at, end, open_window: m.open_window });
  });
  return phases;
}

/** The cadence at time t. Before the first phase, the first phase is reported. */
export function phaseAt(s: Schedule, t: number): CadenceState {
  const p = s.phases[lastStartingBy(s.phases, t)];
  return {
    phase: p.name,
    open_window: p.open_window,
    phase_ends_at: p.end === null ? null : iso(p.end),
    seconds_until_next_phase: p.end === null ? null : Math.ceil((p.end - t) / 1000),
    intake_fenced: p.open_window === null,
  };
}

/** Index of the last phase starting at or before t (0 when t is before them all); binary search. */
function lastStartingBy(phases: Phase[], t: number): number {
  let lo = 0;
  let hi = phases.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (phases[mid].start <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
