import type { Db } from "./db.js";

/** A model's settled score in one round, with the model's name. */
export interface ScoreResultRow {
  model_id: string;
  model: string;
  round: string;
  corr: number;
  aimc: number;
  ncorr: number;
  score: number;
}

/** Every settled score (or one round's), by round then model. */
export function scoreResults(db: Db, exped?: string): ScoreResultRow[] {
  return db
    .prepare(
      `SELECT s.model_id, m.name AS model, s.exped AS round, s.corr, s.aimc, s.ncorr, s.score
       FROM scores s JOIN models m ON m.id = s.model_id JOIN rounds r ON r.exped = s.exped
       ${exped === undefined ? "" : "WHERE s.exped = ?"} ORDER BY r.idx, s.model_id`,
    )
    .all(...(exped === undefined ? [] : [exped])) as ScoreResultRow[];
}

/** Every model that is active or has a score, in creation order. */
export function scoreContenders(db: Db): { model_id: string; model: string }[] {
  return db
    .prepare(
      `SELECT id AS model_id, name AS model FROM models
       WHERE archived_at IS NULL OR id IN (SELECT model_id FROM scores) ORDER BY seq`,
    )
    .all() as { model_id: string; model: string }[];
}

/** The model's score in the round, if it had an entry there. */
export function scoreOf(db: Db, modelId: string, exped: string): number | undefined {
  const row = db.prepare("SELECT score FROM scores WHERE model_id = ? AND exped = ?").get(modelId, exped) as { score: number } | undefined;
  return row?.score;
}

/** Records a round's scores, in order. */
export function insertScores(db: Db, exped: string, results: { model_id: string; n: number; corr: number; aimc: number; ncorr: number; score: number }[]): void {
  const insert = db.prepare("INSERT INTO scores (model_id, exped, n, corr, aimc, ncorr, score) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const r of results) insert.run(r.model_id, exped, r.n, r.corr, r.aimc, r.ncorr, r.score);
}
