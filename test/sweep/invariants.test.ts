import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario } from "../../sim/engine.js";
import { parseScenario, type Scenario } from "../../sim/scenario.js";
import { STEP_INVARIANTS } from "../../sim/sweep/invariants.js";
import { SimClock } from "../../src/domain/clock.js";
import { serviceContext } from "../../src/service/kernel/context.js";
import { loadWorld, type World } from "../../src/service/kernel/deployment.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-invariants-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A finished replay's store, open for writing, and what each invariant says of it. */
interface Replayed {
  db: Database.Database;
  world: World;
  scenario: Scenario;
  now: number;
}

async function replayed(name: string, scenario: Scenario): Promise<Replayed> {
  const path = join(dir, `${name}.db`);
  const world = await loadWorld(deploymentOf(scenario));
  let now = 0;
  await runScenario(scenario, { db: path, world, onEvent: (e) => void (e.kind === "progress" && (now = Date.parse(e.now))) });
  return { db: new Database(path), world, scenario, now };
}

/** Each invariant's finding on the store as it is now: its detail, or null. */
function findings(r: Replayed, world = r.world): Record<string, string | null> {
  const view = { ctx: serviceContext({ db: r.db, clock: new SimClock(r.now), world }), scenario: r.scenario };
  return Object.fromEntries(STEP_INVARIANTS.map((inv) => [inv.name, inv.check(view)]));
}

/** What the invariants find once `sql` has broken the store, the store restored afterwards. */
function brokenBy(r: Replayed, sql: string): Record<string, string | null> {
  r.db.exec("SAVEPOINT broken");
  try {
    expect(r.db.prepare(sql).run().changes).toBeGreaterThan(0);
    return findings(r);
  } finally {
    r.db.exec("ROLLBACK TO broken; RELEASE broken");
  }
}

const CLEAN = { "money conserved": null, "pool counts never negative": null, "every score within the clip": null, "AIMC exactly 0 for the benchmark copier": null };

describe("each invariant a swarm checks fires on a store broken its way", () => {
  let event: Replayed;
  let tournament: Replayed;
  beforeAll(async () => {
    event = await replayed("event", parseScenario(JSON.parse(readFileSync(scenarioFile("default-event"), "utf8")), "default-event"));
    tournament = await replayed("tournament", parseScenario({ ...TINY_SCENARIO, agents: [...TINY_SCENARIO.agents, { name: "alice", key: "key-alice-0001", strategy: "ridge" }] }, "tiny"));
  }, 120_000);
  afterAll(() => {
    event?.db.close();
    tournament?.db.close();
  });

  it("holds on the stores as the engine left them, which hold settled stakes, counted uploads and copier scores", () => {
    expect(findings(event)).toEqual(CLEAN);
    expect(findings(tournament)).toEqual(CLEAN);
    expect((event.db.prepare("SELECT COUNT(*) AS n FROM stake_settlements").get() as { n: number }).n).toBeGreaterThan(0);
    expect((event.db.prepare("SELECT COUNT(*) AS n FROM uploads WHERE score IS NOT NULL").get() as { n: number }).n).toBeGreaterThan(0);
    expect((tournament.db.prepare("SELECT COUNT(*) AS n FROM scores s JOIN models m ON m.id = s.model_id JOIN agents a ON a.id = m.agent_id WHERE a.name = 'bob'").get() as { n: number }).n).toBeGreaterThan(0);
  });

  it("money conserved: a payout the event log does not record", () => {
    const found = brokenBy(event, "UPDATE stake_settlements SET payout_micro = payout_micro + 1 WHERE rowid = (SELECT MIN(rowid) FROM stake_settlements)");
    expect(found["money conserved"]).toMatch(/^.+: settlements paid -?\d+ µUSDC, the event log says -?\d+$/);
  });

  it("money conserved: a payout larger than its stake times the return amplitude", () => {
    const found = brokenBy(event, "UPDATE stake_settlements SET payout_micro = amount_micro * 100 + 1 WHERE rowid = (SELECT MIN(rowid) FROM stake_settlements WHERE amount_micro > 0)");
    expect(found["money conserved"]).toMatch(/^window .+, model .+: a stake of \d+ µUSDC paid \d+ \(at most ×[\d.]+\)$/);
  });

  it("money conserved: a locked stake changed after its lock, or a settled stake gone", () => {
    const changed = brokenBy(event, "UPDATE stake_allocations SET amount_micro = amount_micro + 1 WHERE rowid = (SELECT MIN(rowid) FROM stake_allocations WHERE status = 'locked')");
    expect(changed["money conserved"]).toMatch(/^window .+: locked \d+ µUSDC, its locked allocations \d+/);
    const gone = brokenBy(event, "DELETE FROM stake_settlements WHERE rowid = (SELECT MIN(rowid) FROM stake_settlements WHERE amount_micro > 0)");
    expect(gone["money conserved"]).toMatch(/^window .+: locked (\d+) µUSDC, its locked allocations \1, settled stakes \d+$/);
  });

  it("every score within the clip: an upload's score past it", () => {
    const found = brokenBy(event, "UPDATE uploads SET score = 0.75 WHERE rowid = (SELECT MIN(rowid) FROM uploads WHERE score IS NOT NULL)");
    expect(found["every score within the clip"]).toMatch(/^upload .+'s score of magnitude 0\.75 is outside the clip [\d.]+ in force when it settled$/);
    expect(found["money conserved"]).toBeNull();
  });

  it("every score within the clip: a round settled after set_scoring narrowed the clip, its score within the old clip but past the new one", async () => {
    // The clip narrows to 0.01 between the first round's settlement and the second's.
    const settled = tournament.db.prepare("SELECT t FROM events WHERE type = 'round.settled' ORDER BY seq").all() as { t: number }[];
    expect(settled.length).toBeGreaterThan(1);
    const at = new Date((settled[0].t + settled[1].t) / 2).toISOString();
    const narrowed = await replayed("narrowed", parseScenario({ ...TINY_SCENARIO, actions: [{ at, set_scoring: { clip: 0.01 } }] }, "tiny"));
    try {
      expect(findings(narrowed)).toEqual(CLEAN);
      const later = narrowed.db.prepare("SELECT json_extract(payload, '$.exped') FROM events WHERE type = 'round.settled' ORDER BY seq LIMIT 1 OFFSET 1").pluck().get() as string;
      const found = brokenBy(narrowed, `UPDATE scores SET score = 0.02 WHERE rowid = (SELECT MIN(rowid) FROM scores WHERE exped = '${later}')`);
      expect(found["every score within the clip"]).toBe(`${later}'s tournament score of magnitude 0.02 is outside the clip 0.01 in force when it settled`);
      // The first round settled under the clip of 0.25: 0.02 is within it.
      const first = narrowed.db.prepare("SELECT json_extract(payload, '$.exped') FROM events WHERE type = 'round.settled' ORDER BY seq LIMIT 1").pluck().get() as string;
      expect(brokenBy(narrowed, `UPDATE scores SET score = 0.02 WHERE rowid = (SELECT MIN(rowid) FROM scores WHERE exped = '${first}')`)["every score within the clip"]).toBeNull();
    } finally {
      narrowed.db.close();
    }
  });

  it("pool counts never negative: more counted uploads than the pool", () => {
    const world = { ...event.world, deployment: { ...event.world.deployment, event: { ...event.world.deployment.event!, upload_pool: 0 } } };
    expect(findings(event, world)["pool counts never negative"]).toMatch(/^.+: -\d+ uploads left of 0$/);
  });

  it("AIMC exactly 0 for the benchmark copier: a copier's exped with AIMC off zero", () => {
    const found = brokenBy(
      tournament,
      "UPDATE scores SET aimc = 1e-12 WHERE rowid = (SELECT MIN(s.rowid) FROM scores s JOIN models m ON m.id = s.model_id JOIN agents a ON a.id = m.agent_id WHERE a.name = 'bob')",
    );
    expect(found["AIMC exactly 0 for the benchmark copier"]).toMatch(/^bob: AIMC 1e-12 on exped_\d+$/);
  });
});
