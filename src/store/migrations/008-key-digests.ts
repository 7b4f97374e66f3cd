import type Database from "better-sqlite3";
import { keyDigest } from "../../domain/ids.js";
import { canonicalJson } from "../canonical-json.js";

/**
 * API keys as SHA-256 digests: the keys table keeps `key_sha256` in place of the key, and the
 * stored deployment identity (which a resumed store is checked against) names each agent's key by
 * its digest too. Existing rows are converted, so a store made before this still resumes, and the
 * connection keeps `secure_delete` on, so freed pages are zeroed.
 */
export function migrate(db: Database.Database): void {
  // The raw keys' pages are zeroed as they are freed, not left in the file.
  db.pragma("secure_delete = ON");
  db.exec(`CREATE TABLE key_digests (
    key_sha256 TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL REFERENCES agents(id),
    scope TEXT NOT NULL,
    fingerprint TEXT NOT NULL
  )`);
  const insert = db.prepare("INSERT INTO key_digests (key_sha256, agent_id, scope, fingerprint) VALUES (?, ?, ?, ?)");
  const rows = db.prepare("SELECT key, agent_id, scope, fingerprint FROM keys").all() as { key: string; agent_id: string; scope: string; fingerprint: string }[];
  for (const r of rows) insert.run(keyDigest(r.key), r.agent_id, r.scope, r.fingerprint);
  db.exec("DROP TABLE keys; ALTER TABLE key_digests RENAME TO keys;");
  const stored = db.prepare("SELECT value FROM meta WHERE key = 'deployment'").get() as { value: string } | undefined;
  if (!stored) return;
  const identity = JSON.parse(stored.value) as { agents: { key: string }[] };
  const agents = identity.agents.map((a) => ({ ...a, key: keyDigest(a.key) }));
  db.prepare("UPDATE meta SET value = ? WHERE key = 'deployment'").run(canonicalJson({ ...identity, agents }));
}
