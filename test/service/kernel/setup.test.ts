import { describe, expect, it } from "vitest";
import { SimClock } from "../../../src/domain/clock.js";
import { keyDigest } from "../../../src/domain/ids.js";
import { buildWorld } from "../../../src/service/kernel/deployment.js";
import { EVENT_UPLOAD_DEFAULTS } from "../../../src/service/kernel/settings/upload-limits.js";
import { initialiseStore } from "../../../src/service/kernel/setup.js";
import { canonicalJson } from "../../../src/store/canonical-json.js";
import { openDb } from "../../../src/store/db.js";
import { deploymentOf } from "../../../sim/deployment.js";
import { smallEvent } from "../../helpers/small-event.js";
import { smallScenario } from "../../helpers/small-scenario.js";

/**
 * The store fingerprint as Basecamp wrote it before staking, the auto-submit lane and the upload
 * bounds existed, its keys as migration 008 rewrote them (by their digests;
 * test/http/key-digests.test.ts converts one).
 */
function beforeStaking(d: ReturnType<typeof deploymentOf>): string {
  const agents = d.agents.map(({ name, key, scope, email_confirmed, blocked }) => ({ name, key: keyDigest(key), scope, email_confirmed, blocked }));
  const withoutBounds = d.event && Object.fromEntries(Object.entries(d.event).filter(([k]) => !(k in EVENT_UPLOAD_DEFAULTS)));
  const event = d.event && { ...withoutBounds, model_file: { max_bytes: d.event.model_file.max_bytes, python_versions: d.event.model_file.python_versions } };
  return canonicalJson({ seed: d.seed, kind: d.kind, calendar: d.calendar, event, dataset: d.dataset, agents, faults: d.faults });
}

describe("resuming a store", () => {
  it("accepts a store made before staking and the auto-submit lane, when the scenario uses neither", () => {
    for (const scenario of [smallScenario(), smallEvent()]) {
      const deployment = deploymentOf(scenario);
      const world = buildWorld(deployment);
      const db = openDb();
      db.prepare("INSERT INTO meta (key, value) VALUES ('deployment', ?)").run(beforeStaking(deployment));
      const t = world.schedule.phases[0].start;
      expect(() => initialiseStore({ db, clock: new SimClock(t), world }, t)).not.toThrow();
    }
  });

  it("refuses it once the scenario takes a capability away", () => {
    const scenario = smallEvent({ agents: [{ name: "ann", key: "key-ann-00000001", scope: "event", event_staking: false, strategy: "event_ridge" }] });
    const deployment = deploymentOf(scenario);
    const world = buildWorld(deployment);
    const db = openDb();
    db.prepare("INSERT INTO meta (key, value) VALUES ('deployment', ?)").run(beforeStaking(deployment));
    const t = world.schedule.phases[0].start;
    expect(() => initialiseStore({ db, clock: new SimClock(t), world }, t)).toThrow(/another scenario or seed/);
  });
});
