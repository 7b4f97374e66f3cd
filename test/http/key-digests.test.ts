import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/commands/serve.js";
import { keyFingerprint } from "../../src/domain/ids.js";
import { canonicalJson } from "../../src/store/canonical-json.js";
import { sql as m001 } from "../../src/store/migrations/001-tournament.js";
import { sql as m002 } from "../../src/store/migrations/002-event-uploads.js";
import { sql as m003 } from "../../src/store/migrations/003-event-staking.js";
import { sql as m004 } from "../../src/store/migrations/004-tournament-staking.js";
import { sql as m005 } from "../../src/store/migrations/005-model-files.js";
import { sql as m006 } from "../../src/store/migrations/006-compute-jobs.js";
import { sql as m007 } from "../../src/store/migrations/007-upload-indexes.js";
import { deploymentOf } from "../../sim/deployment.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { ALICE, BOB } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = smallScenario();

/** A store as Basecamp wrote it before key digests (schema 7): raw keys in the keys table and in the stored deployment identity. */
function storeWithRawKeys(file: string): void {
  const db = new Database(file);
  for (const m of [m001, m002, m003, m004, m005, m006, m007]) db.exec(m);
  db.pragma("user_version = 7");
  const d = deploymentOf(scenario);
  const agents = d.agents.map(({ event_staking, ...rest }) => (event_staking ? rest : { ...rest, event_staking }));
  const identity = { seed: d.seed, kind: d.kind, calendar: d.calendar, event: d.event, dataset: d.dataset, agents, faults: d.faults, staking: d.staking, auto_submit: d.auto_submit };
  db.prepare("INSERT INTO meta (key, value) VALUES ('deployment', ?)").run(canonicalJson(identity));
  db.prepare("INSERT INTO settings (key, value) VALUES ('scoring', ?)").run(canonicalJson(d.scoring));
  for (const a of d.agents) {
    db.prepare("INSERT INTO agents (id, name, email_confirmed, blocked) VALUES (?, ?, ?, ?)").run(`agt_${a.name}`, a.name, a.email_confirmed ? 1 : 0, a.blocked ? 1 : 0);
    db.prepare("INSERT INTO keys (key, agent_id, scope, fingerprint) VALUES (?, ?, ?, ?)").run(a.key, `agt_${a.name}`, a.scope, keyFingerprint(a.key));
  }
  db.close();
}

/** Every text the store holds in its keys and meta tables. */
function keyTexts(file: string): string {
  const db = new Database(file, { readonly: true });
  const text = JSON.stringify([db.prepare("SELECT * FROM keys").all(), db.prepare("SELECT * FROM meta").all()]);
  db.close();
  return text;
}

describe("the store keeps API keys as SHA-256 digests", () => {
  it("a fresh store holds no raw key anywhere in its file, and the keys still authenticate over HTTP", async () => {
    const file = join(dir, "fresh.sqlite");
    const server = await startServer({ scenario, port: 0, db: file, log: () => {} });
    const status = await fetch(`${server.url}/api/v1/whoami`, { headers: { "X-API-Key": ALICE } });
    expect(await status.json()).toMatchObject({ authenticated: true, agent: "alice", fingerprint: keyFingerprint(ALICE) });
    await server.close();
    const bytes = readFileSync(file).toString("latin1");
    for (const key of [ALICE, BOB]) expect(bytes).not.toContain(key);
    expect(keyTexts(file)).toMatch(/[0-9a-f]{64}/);
  });

  it("a store made before (raw keys) is converted when opened, resumes under the same scenario, and its keys authenticate", async () => {
    const file = join(dir, "old.sqlite");
    storeWithRawKeys(file);
    expect(keyTexts(file)).toContain(ALICE);
    const server = await startServer({ scenario, port: 0, db: file, log: () => {} });
    const status = await fetch(`${server.url}/api/v1/status`, { headers: { "X-API-Key": ALICE } });
    expect(status.status).toBe(200);
    expect((await status.json()).agent).toBe("alice");
    const wrong = await fetch(`${server.url}/api/v1/status`, { headers: { "X-API-Key": "key-nobody-00000" } });
    expect(wrong.status).toBe(401);
    await server.close();
    const texts = keyTexts(file);
    for (const key of [ALICE, BOB]) expect(texts).not.toContain(key);
    const bytes = readFileSync(file).toString("latin1");
    for (const key of [ALICE, BOB]) expect(bytes, "the converted pages are overwritten, not just freed").not.toContain(key);
    // Resumed again (already converted), and refused under another seed as before.
    const again = await startServer({ scenario, port: 0, db: file, log: () => {} });
    await again.close();
    await expect(startServer({ scenario: smallScenario({ seed: 8 }), port: 0, db: file, log: () => {} })).rejects.toThrow(/another scenario or seed/);
  });
});
