/**
 * Input checks for the cadence builders. Each throws an Error naming the bad field, so a scenario
 * author sees which setting to fix.
 */
import { DAY, MINUTE } from "./clock.js";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;
const HH_MM = /^(\d{2}):(\d{2})$/;

/**
 * Parses an ISO date or datetime as UTC. A datetime without a zone is read as UTC too (never as the
 * machine's local time), so a schedule is the same on every host.
 */
export function parseUtc(field: string, s: string): number {
  let text: string | null = null;
  if (DATE_ONLY.test(s)) text = `${s}T00:00:00Z`;
  else if (DATETIME.test(s)) text = /(Z|[+-]\d{2}:\d{2})$/.test(s) ? s : `${s}Z`;
  const t = text === null || !isCalendarDate(s.slice(0, 10)) ? NaN : Date.parse(text);
  if (Number.isNaN(t)) throw new Error(`${field}: expected an ISO date or datetime, got ${JSON.stringify(s)}`);
  return t;
}

/** Date.parse rolls "2026-02-30" over to March; a schedule should refuse it instead. */
function isCalendarDate(ymd: string): boolean {
  const t = Date.parse(`${ymd}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === ymd;
}

/** "HH:MM" as milliseconds after 00:00 UTC. */
export function timeOfDay(field: string, s: string): number {
  const m = HH_MM.exec(s);
  const h = m ? Number(m[1]) : NaN;
  const min = m ? Number(m[2]) : NaN;
  if (!(h <= 23 && min <= 59)) throw new Error(`${field}: expected "HH:MM" (00:00..23:59), got ${JSON.stringify(s)}`);
  return (h * 60 + min) * MINUTE;
}

export function atLeastOneInteger(field: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${field}: expected an integer >= 1, got ${n}`);
  return n;
}

/**
 * Minutes as whole milliseconds (fractions of a minute are fine for quick rehearsals); `allowZero`
 * for the optional stake window and the round boundary.
 */
export function minutes(field: string, n: number, allowZero = false): number {
  const ms = Math.round(n * MINUTE);
  const ok = Number.isFinite(ms) && (allowZero ? n >= 0 : ms > 0);
  if (!ok) throw new Error(`${field}: expected a number of minutes ${allowZero ? ">= 0" : "> 0"}, got ${n}`);
  return ms;
}

export function weekdaySet(field: string, days: number[]): Set<number> {
  if (days.length === 0) throw new Error(`${field}: expected at least one weekday (0=Sun..6=Sat)`);
  for (const d of days) {
    if (!Number.isInteger(d) || d < 0 || d > 6) throw new Error(`${field}: expected weekdays in 0..6, got ${d}`);
  }
  return new Set(days);
}

/** The UTC midnight starting the day that contains t. */
export const dayStart = (t: number): number => Math.floor(t / DAY) * DAY;
