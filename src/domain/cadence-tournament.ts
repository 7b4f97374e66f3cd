/**
 * The tournament calendar: one round slot per listed weekday (Monday to Friday by default), its
 * window open from `open_time` to `close_time` UTC. Round r's target resolves when the calendar
 * reaches the open of slot r + resolve_after_rounds; slots continue past the season on the same
 * weekdays, so the last rounds resolve after `season_closed`.
 */
import { DAY } from "./clock.js";
import { atLeastOneInteger, dayStart, parseUtc, timeOfDay, weekdaySet } from "./cadence-input.js";
import { phasesFrom, type PhaseMark, type Schedule } from "./cadence-schedule.js";

export interface TournamentCalendar {
  /** ISO date or datetime; its UTC day is the first day considered. */
  start: string;
  n_rounds: number;
  /** Days with a round, 0=Sun..6=Sat. */
  weekdays: number[];
  /** "HH:MM" UTC the window opens. */
  open_time: string;
  /** "HH:MM" UTC the window closes. */
  close_time: string;
  resolve_after_rounds: number;
}

/** 1-based round of the season. */
export interface TournamentRound {
  index: number;
  open_at: number;
  close_at: number;
  resolves_at: number;
}

export const defaultTournamentCalendar: Omit<TournamentCalendar, "start" | "n_rounds"> = {
  weekdays: [1, 2, 3, 4, 5],
  open_time: "00:00",
  close_time: "16:00",
  resolve_after_rounds: 4,
};

export function tournamentRounds(cal: TournamentCalendar): TournamentRound[] {
  const first = dayStart(parseUtc("start", cal.start));
  const n = atLeastOneInteger("n_rounds", cal.n_rounds);
  const lag = atLeastOneInteger("resolve_after_rounds", cal.resolve_after_rounds);
  const days = weekdaySet("weekdays", cal.weekdays);
  const open = timeOfDay("open_time", cal.open_time);
  const close = timeOfDay("close_time", cal.close_time);
  if (close <= open) throw new Error(`close_time: must be after open_time (${cal.close_time} <= ${cal.open_time})`);

  const slotDays: number[] = [];
  for (let day = first; slotDays.length < n + lag; day += DAY) {
    if (days.has(new Date(day).getUTCDay())) slotDays.push(day);
  }
  return slotDays.slice(0, n).map((day, i) => ({
    index: i + 1,
    open_at: day + open,
    close_at: day + close,
    resolves_at: slotDays[i + lag] + open,
  }));
}

/**
 * `pre_season` from the start day's 00:00 UTC, then `round_open` (open_window = windowName(index))
 * and `closed` alternating, and `season_closed` after the last round closes.
 */
export function tournamentSchedule(cal: TournamentCalendar, windowName: (index: number) => string): Schedule {
  const rounds = tournamentRounds(cal);
  const marks: PhaseMark[] = [{ name: "pre_season", at: dayStart(parseUtc("start", cal.start)), open_window: null }];
  rounds.forEach((r, i) => {
    marks.push({ name: "round_open", at: r.open_at, open_window: windowName(r.index) });
    const last = i === rounds.length - 1;
    marks.push({ name: last ? "season_closed" : "closed", at: r.close_at, open_window: null });
  });
  return {
    kind: "tournament",
    phases: phasesFrom(marks),
    rounds: rounds.map((r) => ({ window: windowName(r.index), open_at: r.open_at, close_at: r.close_at, resolves_at: r.resolves_at })),
  };
}
