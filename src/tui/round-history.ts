/** Each model's round scores in the order the rounds settled, gathered from the round boards. */
import type { Board } from "./board.js";

export interface RoundHistory {
  /** Rounds seen so far. */
  rounds: number;
  /** Per model id, one score per round seen; null for a round the model did not enter. */
  scores: Record<string, (number | null)[]>;
}

export const NO_ROUNDS: RoundHistory = { rounds: 0, scores: {} };

/** The history with one more round: a round board's `total` is each entrant's round score. */
export function addRound(history: RoundHistory, round: Board): RoundHistory {
  const scores: Record<string, (number | null)[]> = {};
  for (const id of Object.keys(history.scores)) scores[id] = [...history.scores[id], null];
  for (const row of round.rows) {
    if (row.rounds_scored === 0) continue;
    const before = scores[row.model_id] ?? Array<null>(history.rounds + 1).fill(null);
    before[history.rounds] = row.total;
    scores[row.model_id] = before;
  }
  return { rounds: history.rounds + 1, scores };
}

/** A model's scores, one per round seen (all null for a model not yet on any round board). */
export const seriesOf = (history: RoundHistory, modelId: string): (number | null)[] =>
  history.scores[modelId] ?? Array<null>(history.rounds).fill(null);
