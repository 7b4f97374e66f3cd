/**
 * The standings in Ink: a legend saying what the columns are, the leader highlighted, negative
 * totals dimmed red, shared ranks explained, and (given the round history) each model's round
 * scores as a sparkline in whatever width is left.
 */
import { Box, Text } from "ink";
import type { Board, StandingRow } from "./board.js";
import { TIE_RULE } from "./display-ranks.js";
import { type RoundHistory, seriesOf } from "./round-history.js";
import { scaleOf, sparkline } from "./sparkline.js";
import { standingsLegend } from "./standings-legend.js";
import { layoutStandings, moreRows, NO_STANDINGS } from "./standings-format.js";

/** The leader (display rank 1, ties included) bold green; a negative total dimmed red. */
export function rowStyle(row: StandingRow, rank: number): { bold?: boolean; color?: string; dimColor?: boolean } {
  if (rank === 1) return { bold: true, color: "green" };
  if (row.total < 0) return { color: "red", dimColor: true };
  return {};
}

/** The sparkline column's label: the longest that fits the room left. */
const sparkLabel = (room: number): string => ["round scores", "scores"].find((l) => l.length <= room) ?? "";

export interface StandingsTableProps {
  board: Board;
  title?: string;
  limit?: number;
  history?: RoundHistory;
  /** Columns available; lines are cut to it. */
  width?: number;
}

export function StandingsTable({ board, title, limit, history, width = 80 }: StandingsTableProps) {
  const { header, lines, hidden, tied } = layoutStandings(board, limit);
  const room = width - header.length - 2;
  const spark = history === undefined ? 0 : Math.min(history.rounds, room);
  const latest = (id: string) => (history === undefined ? [] : seriesOf(history, id).slice(history.rounds - spark));
  const scale = spark > 0 ? scaleOf(board.rows.map((r) => latest(r.model_id))) : { lo: 0, hi: 0 };
  const withSpark = (text: string, cell: () => string) => (spark > 0 ? `${text}  ${cell()}` : text);
  return (
    <Box flexDirection="column" width={width}>
      {title !== undefined && <Text bold wrap="truncate">{title}</Text>}
      {standingsLegend(board.rank_metric, width).map((line) => (
        <Text key={line} dimColor wrap="truncate">
          {line}
        </Text>
      ))}
      {board.rows.length === 0 ? (
        <Text dimColor>{NO_STANDINGS}</Text>
      ) : (
        <>
          <Text bold wrap="truncate">
            {withSpark(header, () => sparkLabel(room))}
          </Text>
          {lines.map(({ row, rank, text }) => (
            <Text key={row.model_id} wrap="truncate" {...rowStyle(row, rank)}>
              {withSpark(text, () => sparkline(latest(row.model_id), scale))}
            </Text>
          ))}
        </>
      )}
      {hidden > 0 && <Text dimColor>{moreRows(hidden)}</Text>}
      {tied && <Text dimColor wrap="truncate">{TIE_RULE}</Text>}
    </Box>
  );
}
