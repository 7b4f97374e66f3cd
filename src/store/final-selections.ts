import type { Db } from "./db.js";

/** The models an agent has selected for the final window, in the order it gave them. */
export function selectionOf(db: Db, agentId: string): { model_id: string; model: string }[] {
  return db
    .prepare(
      `SELECT f.model_id, m.name AS model FROM final_selections f JOIN models m ON m.id = f.model_id
       WHERE f.agent_id = ? ORDER BY f.pos`,
    )
    .all(agentId) as { model_id: string; model: string }[];
}

/** Replaces the agent's selection with these models, in order. */
export function replaceSelection(db: Db, agentId: string, modelIds: string[]): void {
  db.prepare("DELETE FROM final_selections WHERE agent_id = ?").run(agentId);
  const insert = db.prepare("INSERT INTO final_selections (agent_id, pos, model_id) VALUES (?, ?, ?)");
  modelIds.forEach((id, pos) => insert.run(agentId, pos, id));
}

/** Every selected model, by id. */
export function selectedModels(db: Db): { model_id: string; model: string }[] {
  return db
    .prepare("SELECT f.model_id, m.name AS model FROM final_selections f JOIN models m ON m.id = f.model_id ORDER BY f.model_id")
    .all() as { model_id: string; model: string }[];
}
