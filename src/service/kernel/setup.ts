import { agentId, keyDigest, keyFingerprint } from "../../domain/ids.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { Deployment, EventSettings } from "./deployment.js";
import type { ServiceContext } from "./context.js";
import { EVENT_UPLOAD_DEFAULTS } from "./settings/upload-limits.js";
import { storeFaults } from "./faults.js";

/**
 * Puts a deployment into an empty store (agents, keys, the season's rounds), or checks that a store
 * being resumed was made from the same deployment: resuming under another scenario or seed is refused.
 */
export function initialiseStore(ctx: Pick<ServiceContext, "db" | "world" | "clock">, t: number): void {
  const { db, world } = ctx;
  const fingerprint = canonicalJson(deploymentIdentity(world.deployment));
  const stored = db.prepare("SELECT value FROM meta WHERE key = 'deployment'").get() as { value: string } | undefined;
  if (stored) {
    if (stored.value !== fingerprint) {
      throw new Error("this store was made from another scenario or seed; use a fresh --db or the same scenario");
    }
    return;
  }
  inTransaction(db, () => {
    db.prepare("INSERT INTO meta (key, value) VALUES ('deployment', ?)").run(fingerprint);
    setScoringSettings(ctx, world.deployment.scoring);
    storeFaults(ctx, world.deployment.faults);
    const agent = db.prepare("INSERT INTO agents (id, name, email_confirmed, blocked) VALUES (?, ?, ?, ?)");
    const key = db.prepare("INSERT INTO keys (key_sha256, agent_id, scope, fingerprint) VALUES (?, ?, ?, ?)");
    for (const a of world.deployment.agents) {
      agent.run(agentId(a.name), a.name, a.email_confirmed ? 1 : 0, a.blocked ? 1 : 0);
      key.run(keyDigest(a.key), agentId(a.name), a.scope, keyFingerprint(a.key));
    }
    const round = db.prepare(
      "INSERT INTO rounds (exped, idx, open_at, close_at, resolves_at, status) VALUES (?, ?, ?, ?, ?, 'scheduled')",
    );
    world.schedule.rounds.forEach((r, i) => round.run(r.window, i + 1, r.open_at, r.close_at, r.resolves_at));
    appendEvent(db, t, "deployment.initialised", {
      seed: world.deployment.seed,
      agents: world.deployment.agents.map((a) => ({ name: a.name, scope: a.scope })),
      rounds: world.schedule.rounds.map((r) => r.window),
      scoring: world.deployment.scoring,
    });
  });
}

/** The parts of a deployment that must match for a store to be resumed; each key by its digest, never itself. */
function deploymentIdentity(d: Deployment): unknown {
  // An agent's defaulted event_staking stays out, so stores made before it existed still resume.
  const agents = d.agents.map(({ event_staking, key, ...rest }) =>
    event_staking ? { ...rest, key: keyDigest(key) } : { ...rest, key: keyDigest(key), event_staking },
  );
  return { seed: d.seed, kind: d.kind, calendar: d.calendar, event: eventIdentity(d.event), dataset: d.dataset, agents, faults: d.faults, staking: d.staking, auto_submit: d.auto_submit };
}

/** An event's settings, a newer field left out at its default, so stores made before it existed still resume. */
function eventIdentity(e: EventSettings | undefined): unknown {
  if (!e) return e;
  const { enforce_python_version, ...model_file } = e.model_file;
  const kept: Record<string, unknown> = { ...e, model_file: enforce_python_version ? model_file : e.model_file };
  for (const [key, value] of Object.entries(EVENT_UPLOAD_DEFAULTS)) if (kept[key] === value) delete kept[key];
  return kept;
}

export interface ScoringSettingsRecord {
  weights: { corr: number; aimc: number; ncorr: number };
  clip: number;
  aggregate: "sum" | "exped_weighted_mean";
}

/** The live scoring settings; a round is scored with those in force when it settles. */
export function scoringSettings(ctx: ServiceContext): ScoringSettingsRecord {
  const row = ctx.db.prepare("SELECT value FROM settings WHERE key = 'scoring'").get() as { value: string };
  return JSON.parse(row.value) as ScoringSettingsRecord;
}

export function setScoringSettings(ctx: Pick<ServiceContext, "db">, s: ScoringSettingsRecord): void {
  ctx.db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('scoring', ?)").run(canonicalJson(s));
}
