/**
 * The live view of a simulated season, sized to the terminal: the title (with the keys, or that
 * the replay is paused), the standings so far, the latest log lines (refusals agents got and the
 * like), the stake table once a money event is over, and, always as the last line, the progress
 * while running and the event-log digest (which a rerun with the same scenario and seed must
 * reproduce) once over.
 */
import { Box, Text } from "ink";
import type { Board } from "./board.js";
import { hasTies } from "./display-ranks.js";
import { progressBar } from "./progress-bar.js";
import { NO_ROUNDS, type RoundHistory } from "./round-history.js";
import { clipLines, fitSeason } from "./season-fit.js";
import type { SeasonProgress } from "./season-state.js";
import { standingsLegend } from "./standings-legend.js";
import { NO_STANDINGS } from "./standings-format.js";
import { StandingsTable } from "./standings-table.js";

/** Where the replay stands, as the keys left it; "off" when there are no keys (stdin not a terminal). */
export type ReplayStatus = "off" | "running" | "paused" | "stopping";

export interface TerminalSize {
  columns: number;
  rows: number;
}

export interface SeasonViewProps {
  scenario: string;
  seed: string | number;
  progress: SeasonProgress;
  board: Board | null;
  history?: RoundHistory;
  log: string[];
  digest: string | null;
  /** Money events, once over: the stake balances as text. */
  stakes?: string | null;
  /** How many of the latest log lines to show at most. */
  logLines?: number;
  size?: TerminalSize;
  status?: ReplayStatus;
}

const hints: Record<ReplayStatus, { text: string; color?: string }> = {
  off: { text: "" },
  running: { text: "q quit · space pause" },
  paused: { text: "paused · space resumes · q quit", color: "yellow" },
  stopping: { text: "stopping after this step…", color: "yellow" },
};

export function SeasonView(props: SeasonViewProps) {
  const { scenario, seed, progress, board, history = NO_ROUNDS, log, digest, stakes = null, logLines = 5 } = props;
  const { size = { columns: 80, rows: 24 }, status = "off" } = props;
  const width = size.columns;
  const hint = hints[digest === null ? status : "off"];
  const stakeLines = stakes === null ? [] : stakes.trimEnd().split("\n");
  const tableLines = board === null ? 1 : standingsLegend(board.rank_metric, width).length + 1 + (hasTies(board.rows) ? 1 : 0);
  // One line short of the terminal: a frame as tall as the screen makes Ink redraw it whole.
  const fit = fitSeason({
    height: size.rows - 1,
    fixed: 2 + tableLines + (digest === null ? 0 : 1),
    boardRows: board?.rows.length ?? 0,
    logLines: Math.min(logLines, log.length),
    stakesLines: stakeLines.length,
  });
  const recent = fit.log > 0 ? log.slice(-fit.log) : [];
  const clock = progress.now === "" ? progress.phase : `${progress.now} ${progress.phase}`;
  const after = ` rounds settled · ${clock}`;
  // The bar gives up width (down to 5) before the clock and phase are cut.
  const bar = Math.max(5, Math.min(20, width - after.length - `[] ${progress.settled}/${progress.total}`.length));
  return (
    <Box flexDirection="column" width={width}>
      <Box justifyContent="space-between" width={width}>
        <Text wrap="truncate">
          <Text bold>{scenario}</Text> <Text dimColor>seed {String(seed)}</Text>
        </Text>
        {hint.text !== "" && <Text color={hint.color}> {hint.text}</Text>}
      </Box>
      {board === null ? <Text dimColor>{NO_STANDINGS}</Text> : <StandingsTable board={board} limit={fit.standings} history={history} width={width} />}
      {recent.map((line, i) => (
        <Text key={log.length - recent.length + i} dimColor wrap="truncate">
          {line}
        </Text>
      ))}
      {clipLines(stakeLines, fit.stakes).map((line, i) => (
        <Text key={`stake-${i}`} wrap="truncate">
          {line}
        </Text>
      ))}
      <Text wrap="truncate">
        {progressBar(progress.settled, progress.total, bar)} rounds settled · <Text color="cyan">{clock}</Text>
      </Text>
      {digest !== null && (
        <Text wrap="truncate">
          log digest <Text bold>{digest}</Text>
        </Text>
      )}
    </Box>
  );
}
