/** The standings as plain text, for when stdout is not a TTY (pipes, logs, CI). */
import type { Board } from "./board.js";
import { TIE_RULE } from "./display-ranks.js";
import { layoutStandings, moreRows, NO_STANDINGS, rankedBy } from "./standings-format.js";

export function formatStandings(board: Board, opts: { title?: string; limit?: number } = {}): string {
  const { header, lines, hidden, tied } = layoutStandings(board, opts.limit);
  const out: string[] = [];
  if (opts.title !== undefined) out.push(opts.title);
  out.push(rankedBy(board));
  if (board.rows.length === 0) out.push(NO_STANDINGS);
  else out.push(header, ...lines.map((l) => l.text));
  if (hidden > 0) out.push(moreRows(hidden));
  if (tied) out.push(TIE_RULE);
  return out.join("\n") + "\n";
}
