/** What the live view knows of a replay, folded from the updates the engine reports. */
import type { Board } from "./board.js";
import { addRound, NO_ROUNDS, type RoundHistory } from "./round-history.js";

export interface SeasonProgress {
  settled: number;
  total: number;
  phase: string;
  /** Simulated time, ISO. */
  now: string;
}

/** The engine's events the view uses, and the end of the replay. */
export type SeasonUpdate =
  | { kind: "progress"; now: string; phase: string; settled: number; rounds: number }
  | { kind: "settled"; board: Board; round?: Board }
  | { kind: "log"; line: string }
  | { kind: "done"; board: Board; digest: string; stakes: string | null };

export interface SeasonState {
  progress: SeasonProgress;
  board: Board | null;
  history: RoundHistory;
  log: string[];
  digest: string | null;
  stakes: string | null;
}

/** Log lines kept (the view shows the latest few). */
const KEPT_LOG = 50;

export const startSeason = (rounds: number): SeasonState => ({
  progress: { settled: 0, total: rounds, phase: "starting", now: "" },
  board: null,
  history: NO_ROUNDS,
  log: [],
  digest: null,
  stakes: null,
});

export function reduceSeason(state: SeasonState, u: SeasonUpdate): SeasonState {
  switch (u.kind) {
    case "progress":
      return { ...state, progress: { settled: u.settled, total: u.rounds, phase: u.phase, now: u.now } };
    case "settled":
      return { ...state, board: u.board, history: u.round ? addRound(state.history, u.round) : state.history };
    case "log":
      return { ...state, log: [...state.log.slice(1 - KEPT_LOG), u.line] };
    case "done":
      return { ...state, board: u.board, digest: u.digest, stakes: u.stakes };
  }
}
