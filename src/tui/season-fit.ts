/**
 * How the season view shares the terminal's rows: the fixed lines (title, legend, table header,
 * tie rule, progress, digest) first, then the stake table (up to half of what is left), the latest
 * log lines (a quarter when space is short) and the standings rows, cut with "… N more".
 */
import { moreRows } from "./standings-format.js";

export interface SeasonFitInput {
  /** Lines the view may use. */
  height: number;
  fixed: number;
  boardRows: number;
  logLines: number;
  stakesLines: number;
}

export interface SeasonFit {
  /** Standings rows to show (the "… N more" line, when needed, is counted apart from them). */
  standings: number;
  log: number;
  /** Stake lines to show, the "… N more" line included. */
  stakes: number;
}

export function fitSeason({ height, fixed, boardRows, logLines, stakesLines }: SeasonFitInput): SeasonFit {
  let free = Math.max(0, height - fixed);
  const stakes = Math.min(stakesLines, Math.floor(free / 2));
  free -= stakes;
  if (boardRows + logLines <= free) return { standings: boardRows, log: logLines, stakes };
  const log = Math.min(logLines, Math.floor(free / 4));
  const room = free - log;
  return { standings: boardRows <= room ? boardRows : Math.max(0, room - 1), log, stakes };
}

/** At most `max` lines; when cut, the last one says how many were left out. */
export function clipLines(lines: string[], max: number): string[] {
  if (lines.length <= max) return lines;
  if (max <= 0) return [];
  return [...lines.slice(0, max - 1), moreRows(lines.length - max + 1)];
}
