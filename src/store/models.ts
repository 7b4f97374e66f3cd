import type { Db } from "./db.js";

/** A model as stored. */
export interface ModelRow {
  id: string;
  agent_id: string;
  name: string;
  created_at: number;
  archived_at: number | null;
  auto_submit: number;
}

/** The caller's live model with this private label (events name models themselves). */
export function liveModelByLabel(db: Db, label: string, agentId: string): ModelRow | undefined {
  return db.prepare("SELECT * FROM models WHERE label = ? AND agent_id = ? AND archived_at IS NULL").get(label, agentId) as ModelRow | undefined;
}

/** The live model with this name, whoever owns it (names are unique on a tournament). */
export function liveModelByName(db: Db, name: string): ModelRow | undefined {
  return db.prepare("SELECT * FROM models WHERE name = ? AND archived_at IS NULL").get(name) as ModelRow | undefined;
}

export function modelCount(db: Db): number {
  const { n } = db.prepare("SELECT COUNT(*) AS n FROM models").get() as { n: number };
  return n;
}

export function insertModel(db: Db, row: Omit<ModelRow, "archived_at">, seq: number, label: string | null): void {
  db.prepare("INSERT INTO models (id, seq, agent_id, name, label, created_at, auto_submit) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
    row.id,
    seq,
    row.agent_id,
    row.name,
    label,
    row.created_at,
    row.auto_submit,
  );
}

/** The names of an agent's live models, oldest first (through the index on agent_id: no scan of every agent's models). */
export function liveModelNamesOf(db: Db, agentId: string): string[] {
  return (db.prepare("SELECT name FROM models WHERE agent_id = ? AND archived_at IS NULL ORDER BY seq").all(agentId) as { name: string }[]).map((r) => r.name);
}

/** An agent's live models, oldest first. */
export function liveModelsOf(db: Db, agentId: string): ModelRow[] {
  return db.prepare("SELECT * FROM models WHERE agent_id = ? AND archived_at IS NULL ORDER BY seq").all(agentId) as ModelRow[];
}

export function modelById(db: Db, id: string): ModelRow | undefined {
  return db.prepare("SELECT * FROM models WHERE id = ?").get(id) as ModelRow | undefined;
}

/** The agent's live model of this name. */
export function liveModelOf(db: Db, name: string, agentId: string): ModelRow | undefined {
  return db.prepare("SELECT * FROM models WHERE name = ? AND agent_id = ? AND archived_at IS NULL").get(name, agentId) as ModelRow | undefined;
}

/** Whether the agent has a live model with this private label. */
export function hasLabel(db: Db, label: string, agentId: string): boolean {
  return db.prepare("SELECT 1 FROM models WHERE label = ? AND agent_id = ? AND archived_at IS NULL").get(label, agentId) !== undefined;
}

export function archiveModelRow(db: Db, id: string, t: number): void {
  db.prepare("UPDATE models SET archived_at = ? WHERE id = ?").run(t, id);
}

/** Which agent stands behind each model, in creation order. */
export function modelOwners(db: Db): { model: string; agent: string; label: string | null }[] {
  return db
    .prepare("SELECT m.name AS model, a.name AS agent, m.label FROM models m JOIN agents a ON a.id = m.agent_id ORDER BY m.seq")
    .all() as { model: string; agent: string; label: string | null }[];
}

/** Live models whose auto-submit switch is on, in creation order. */
export function autoSubmitModelIds(db: Db): string[] {
  return (db.prepare("SELECT id FROM models WHERE auto_submit = 1 AND archived_at IS NULL ORDER BY seq").all() as { id: string }[]).map((r) => r.id);
}

export function setAutoSubmitSwitch(db: Db, id: string, enabled: boolean): void {
  db.prepare("UPDATE models SET auto_submit = ? WHERE id = ?").run(enabled ? 1 : 0, id);
}

/** Who owns the model named `ref` (an id, or a live model's name): the newest match. */
export function ownerOf(db: Db, ref: string): string | undefined {
  const row = db.prepare("SELECT agent_id FROM models WHERE id = ? OR (name = ? AND archived_at IS NULL) ORDER BY seq DESC LIMIT 1").get(ref, ref) as
    | { agent_id: string }
    | undefined;
  return row?.agent_id;
}

/** A model's name (the model exists: a run or a stake names it). */
export function modelName(db: Db, id: string): string {
  return (db.prepare("SELECT name FROM models WHERE id = ?").get(id) as { name: string }).name;
}
