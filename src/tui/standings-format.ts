/**
 * The standings table's columns and number format, shared by the plain-text and the Ink views so
 * both print the same aligned lines.
 */
import type { Board, StandingRow } from "./board.js";
import { displayRanks, hasTies } from "./display-ranks.js";

/** A score with its sign and 4 decimals: +0.0123, -0.0040. */
export const signed = (x: number): string => (x >= 0 ? "+" : "") + x.toFixed(4);

interface Column {
  label: string;
  align: "left" | "right";
  /** A row's cell, given its display rank. */
  cell: (r: StandingRow, rank: number) => string;
}

const columns: Column[] = [
  { label: "#", align: "right", cell: (_, rank) => String(rank) },
  { label: "model", align: "left", cell: (r) => r.model },
  { label: "rounds", align: "right", cell: (r) => String(r.rounds_scored) },
  { label: "CORR", align: "right", cell: (r) => signed(r.corr) },
  { label: "AIMC", align: "right", cell: (r) => signed(r.aimc) },
  { label: "NCORR", align: "right", cell: (r) => signed(r.ncorr) },
  { label: "total", align: "right", cell: (r) => signed(r.total) },
];

export interface StandingsLayout {
  header: string;
  /** One line per shown row, with its display rank (ties share one). */
  lines: { row: StandingRow; rank: number; text: string }[];
  /** Rows left out by the limit. */
  hidden: number;
  /** Some rows share a rank: the views then state the tie rule. */
  tied: boolean;
}

/** The header and one line per shown row, every column padded to its widest cell. */
export function layoutStandings(board: Board, limit?: number): StandingsLayout {
  const shown = limit === undefined ? board.rows : board.rows.slice(0, limit);
  const ranks = displayRanks(board.rows);
  const cells = shown.map((r, i) => columns.map((c) => c.cell(r, ranks[i])));
  const widths = columns.map((c, i) => Math.max(c.label.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]): string =>
    row.map((s, i) => (columns[i].align === "left" ? s.padEnd(widths[i]) : s.padStart(widths[i]))).join("  ");
  return {
    header: line(columns.map((c) => c.label)),
    lines: shown.map((row, i) => ({ row, rank: ranks[i], text: line(cells[i]) })),
    hidden: board.rows.length - shown.length,
    tied: hasTies(board.rows),
  };
}

export const rankedBy = (board: Board): string => `ranked by ${board.rank_metric}`;
export const moreRows = (hidden: number): string => `… ${hidden} more`;
export const NO_STANDINGS = "no standings yet";
