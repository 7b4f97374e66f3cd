import type { Db } from "./db.js";

/** The agent an API key's digest stands for, as stored. */
export interface KeyHolderRow {
  agent_id: string;
  agent: string;
  scope: string;
  fingerprint: string;
  email_confirmed: number;
  blocked: number;
}

export function keyHolder(db: Db, keySha256: string): KeyHolderRow | undefined {
  return db
    .prepare(
      `SELECT a.id AS agent_id, a.name AS agent, k.scope, k.fingerprint, a.email_confirmed, a.blocked
       FROM keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_sha256 = ?`,
    )
    .get(keySha256) as KeyHolderRow | undefined;
}

/** Puts the deployment's agents and their keys into a fresh store, in the deployment's order. */
export function insertAgents(
  db: Db,
  agents: { id: string; name: string; email_confirmed: boolean; blocked: boolean; key_sha256: string; scope: string; fingerprint: string }[],
): void {
  const agent = db.prepare("INSERT INTO agents (id, name, email_confirmed, blocked) VALUES (?, ?, ?, ?)");
  const key = db.prepare("INSERT INTO keys (key_sha256, agent_id, scope, fingerprint) VALUES (?, ?, ?, ?)");
  for (const a of agents) {
    agent.run(a.id, a.name, a.email_confirmed ? 1 : 0, a.blocked ? 1 : 0);
    key.run(a.key_sha256, a.id, a.scope, a.fingerprint);
  }
}
