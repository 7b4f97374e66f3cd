/**
 * The live view of a simulated season: where the clock is, the standings so far, the latest log
 * lines (refusals agents got and the like) and, once the season is over, the event-log digest that
 * a rerun with the same scenario and seed must reproduce.
 */
import { Box, Text } from "ink";
import type { Board } from "./board.js";
import { progressBar } from "./progress-bar.js";
import { NO_STANDINGS } from "./standings-format.js";
import { StandingsTable } from "./standings-table.js";

export interface SeasonProgress {
  settled: number;
  total: number;
  phase: string;
  /** Simulated time, ISO. */
  now: string;
}

export interface SeasonViewProps {
  scenario: string;
  seed: string | number;
  progress: SeasonProgress;
  board: Board | null;
  log: string[];
  digest: string | null;
  /** Money events, once over: the stake balances as text. */
  stakes?: string | null;
  /** How many of the latest log lines to show. */
  logLines?: number;
}

export function SeasonView({ scenario, seed, progress, board, log, digest, stakes = null, logLines = 5 }: SeasonViewProps) {
  const recent = log.slice(-logLines);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{scenario}</Text> <Text dimColor>seed {String(seed)}</Text>
      </Text>
      <Text>
        {progress.now} <Text color="cyan">{progress.phase}</Text>
      </Text>
      <Text>
        {progressBar(progress.settled, progress.total)} rounds settled
      </Text>
      <Box marginTop={1}>
        {board === null ? <Text dimColor>{NO_STANDINGS}</Text> : <StandingsTable board={board} />}
      </Box>
      {recent.length > 0 && (
        <Box flexDirection="column" marginTop={1}>
          {recent.map((line, i) => (
            <Text key={log.length - recent.length + i} dimColor>
              {line}
            </Text>
          ))}
        </Box>
      )}
      {stakes !== null && (
        <Box marginTop={1}>
          <Text>{stakes.trimEnd()}</Text>
        </Box>
      )}
      {digest !== null && (
        <Box marginTop={1}>
          <Text>
            event log digest <Text bold>{digest}</Text>
          </Text>
        </Box>
      )}
    </Box>
  );
}
