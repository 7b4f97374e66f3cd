import { agentId, keyDigest, keyFingerprint } from "../../domain/ids.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { Deployment, EventSettings } from "./deployment.js";
import type { ServiceContext } from "./context.js";
import { EVENT_UPLOAD_DEFAULTS } from "./settings/upload-limits.js";
import { storeFaults } from "./faults.js";
import { insertAgents } from "../../store/agents.js";
import { storeDeployment, storedDeployment } from "../../store/meta.js";
import { scheduleRounds } from "../../store/rounds.js";
import { scoringSettingsJson, setScoringSettingsJson } from "../../store/settings.js";

/**
 * Puts a deployment into an empty store (agents, keys, the season's rounds), or checks that a store
 * being resumed was made from the same deployment: resuming under another scenario or seed is refused.
 */
export function initialiseStore(ctx: Pick<ServiceContext, "db" | "world" | "clock">, t: number): void {
  const { db, world } = ctx;
  const fingerprint = canonicalJson(deploymentIdentity(world.deployment));
  const stored = storedDeployment(db);
  if (stored !== undefined) {
    if (stored !== fingerprint) {
      throw new Error("this store was made from another scenario or seed; use a fresh --db or the same scenario");
    }
    return;
  }
  inTransaction(db, () => {
    storeDeployment(db, fingerprint);
    setScoringSettings(ctx, world.deployment.scoring);
    storeFaults(ctx, world.deployment.faults);
    insertAgents(
      db,
      world.deployment.agents.map((a) => ({
        id: agentId(a.name),
        name: a.name,
        email_confirmed: a.email_confirmed,
        blocked: a.blocked,
        key_sha256: keyDigest(a.key),
        scope: a.scope,
        fingerprint: keyFingerprint(a.key),
      })),
    );
    scheduleRounds(db, world.schedule.rounds);
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
  return JSON.parse(scoringSettingsJson(ctx.db)) as ScoringSettingsRecord;
}

export function setScoringSettings(ctx: Pick<ServiceContext, "db">, s: ScoringSettingsRecord): void {
  setScoringSettingsJson(ctx.db, canonicalJson(s));
}
