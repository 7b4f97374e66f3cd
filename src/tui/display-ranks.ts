/**
 * Ranks as the views show them: rows with equal totals share a rank and the next rank skips
 * (1, 1, 1, 4 …). The service's own `rank` stays unique (ties ordered by model id); this is
 * display only. The rows must be in the board's order.
 */
import type { StandingRow } from "./board.js";

export function displayRanks(rows: readonly StandingRow[]): number[] {
  const ranks: number[] = [];
  rows.forEach((row, i) => ranks.push(i > 0 && row.total === rows[i - 1].total ? ranks[i - 1] : i + 1));
  return ranks;
}

/** Whether any two rows share a display rank. */
export const hasTies = (rows: readonly StandingRow[]): boolean => rows.some((row, i) => i > 0 && row.total === rows[i - 1].total);

/** The footer that explains shared ranks. */
export const TIE_RULE = "ties share a rank; the service orders them by model id";
