/**
 * The standings the views show, as the scoring engine gives them. Structurally identical to
 * `Board` / `StandingRow` in src/scoring/standings.ts; re-export those from here once it lands.
 */
export interface StandingRow {
  rank: number;
  model_id: string;
  model: string;
  rounds_scored: number;
  corr: number;
  aimc: number;
  ncorr: number;
  total: number;
}

export interface Board {
  rank_metric: string;
  rows: StandingRow[];
}
