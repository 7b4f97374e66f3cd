/**
 * The cadence: pure schedule models for the tournament calendar and the event plan, and the
 * cadence object (`phase`, `open_window`, `phase_ends_at`, `seconds_until_next_phase`,
 * `intake_fenced`) read off a schedule at a given time. Times are epoch ms UTC.
 */
export { phaseAt } from "./cadence-schedule.js";
export type { CadenceState, Phase, Schedule, ScheduledRound } from "./cadence-schedule.js";
export { defaultTournamentCalendar, tournamentRounds, tournamentSchedule } from "./cadence-tournament.js";
export type { TournamentCalendar, TournamentRound } from "./cadence-tournament.js";
export { buildPhase, eventSchedule } from "./cadence-event.js";
export type { EventPlan } from "./cadence-event.js";
