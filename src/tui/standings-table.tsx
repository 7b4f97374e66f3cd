/** The standings in Ink: the leader highlighted, negative totals dimmed red. */
import { Box, Text } from "ink";
import type { Board, StandingRow } from "./board.js";
import { layoutStandings, moreRows, NO_STANDINGS, rankedBy } from "./standings-format.js";

/** The leader (rank 1, ties included) bold green; a negative total dimmed red. */
export function rowStyle(row: StandingRow): { bold?: boolean; color?: string; dimColor?: boolean } {
  if (row.rank === 1) return { bold: true, color: "green" };
  if (row.total < 0) return { color: "red", dimColor: true };
  return {};
}

export function StandingsTable({ board, title, limit }: { board: Board; title?: string; limit?: number }) {
  const { header, lines, hidden } = layoutStandings(board, limit);
  return (
    <Box flexDirection="column">
      {title !== undefined && <Text bold>{title}</Text>}
      <Text dimColor>{rankedBy(board)}</Text>
      {board.rows.length === 0 ? (
        <Text dimColor>{NO_STANDINGS}</Text>
      ) : (
        <>
          <Text bold>{header}</Text>
          {lines.map(({ row, text }) => (
            <Text key={row.model_id} {...rowStyle(row)}>
              {text}
            </Text>
          ))}
        </>
      )}
      {hidden > 0 && <Text dimColor>{moreRows(hidden)}</Text>}
    </Box>
  );
}
