import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { openDb } from "../../src/store/db.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario } from "../../sim/engine.js";
import { loadLineup } from "../../sim/agents/lineup.js";
import { trainBody, type TrainerParams } from "../../sim/agents/hosted-trainer.js";
import { loadScenario } from "../../sim/scenario.js";
import { harness } from "../helpers/service-harness.js";
import { smallEvent } from "../helpers/small-event.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-compute-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The small event with a compute grant: a hosted trainer, one asking for a model Basecamp does not train, a plain ridge. */
const scenario = smallEvent(
  {
    agents: [
      { name: "hal", key: "key-hal-00000001", scope: "event", strategy: "hosted_trainer", params: { gpu: "A100", features: "all" } },
      { name: "gus", key: "key-gus-00000002", scope: "event", strategy: "hosted_trainer", params: { model: "lightgbm" } },
      { name: "ann", key: "key-ann-00000003", scope: "event", strategy: "event_ridge" },
    ],
  },
  { compute: { budget_usd: "5" }, upload_pool: 10 },
);
const world = buildWorld(deploymentOf(scenario));

describe("a replay with hosted compute", () => {
  requires("python").it("trains in the build phase, files the trained model's predictions every round, and gives the same digest twice", async () => {
    const log: string[] = [];
    const db = join(dir, "compute.db");
    const first = await runScenario(scenario, { world, db, onEvent: (e) => e.kind === "log" && log.push(e.line) });
    expect(log.some((l) => l.includes(" gus build: refused 400 train_model_unsupported"))).toBe(true);
    const store = openDb(db);
    const jobs = store.prepare("SELECT status FROM compute_jobs").all() as { status: string }[];
    const filed = store
      .prepare("SELECT u.status FROM uploads u JOIN agents a ON a.id = u.agent_id WHERE a.name = 'hal' AND u.lane = 'round'")
      .all() as { status: string }[];
    store.close();
    expect(jobs).toEqual([{ status: "completed" }]);
    expect(filed.map((r) => r.status)).toEqual(["finalised", "finalised", "finalised"]);
    const hal = first.legend.find((m) => m.agent === "hal")?.model;
    expect(first.board.rows.find((r) => r.model === hal)?.rounds_scored).toBe(3);
    // The budget table: hal's one A100 ridge charged and nothing held; gus (refused) and ann spent nothing.
    const spent = first.compute?.agents[0].spent_cents as number;
    expect(spent).toBeGreaterThan(0);
    expect(first.compute).toEqual({
      agents: [
        { agent: "hal", grant_cents: 500, spent_cents: spent, machine_cents: 0, reserved_cents: 0, remaining_cents: 500 - spent, by_kind: [expect.objectContaining({ kind: "ridge", jobs: 1, completed: 1, spent_cents: spent })], machines: [] },
        { agent: "gus", grant_cents: 500, spent_cents: 0, machine_cents: 0, reserved_cents: 0, remaining_cents: 500, by_kind: [], machines: [] },
        { agent: "ann", grant_cents: 500, spent_cents: 0, machine_cents: 0, reserved_cents: 0, remaining_cents: 500, by_kind: [], machines: [] },
      ],
      by_kind: [expect.objectContaining({ kind: "ridge", jobs: 1, completed: 1, spent_cents: spent })],
    });
    expect((await runScenario(scenario, { world })).digest).toBe(first.digest);
  });

  it("ships a compute scenario that loads", () => {
    expect(loadScenario("scenarios/compute-event.json").event?.compute).toEqual({ budget_usd: "5", rate_card_usd_per_hr: expect.any(Object) });
  });

  // The replay itself runs four sandboxed fits and ten predicts (about 30 s): here each agent's train call is priced instead.
  requires("python", "training").it("ships a scenario of every kind whose train calls the service takes, each done well inside the build phase, and LightGBM refused", async () => {
    const scenario = loadScenario("scenarios/compute-kinds-event.json");
    const lineup = await loadLineup(scenario);
    const h = harness(scenario);
    const trainers = scenario.agents.flatMap((a, i) => (a.strategy === "hosted_trainer" ? [{ key: a.key, params: lineup.params[i] as TrainerParams }] : []));
    const asked = await Promise.all(trainers.map((a) => h.service.train(a.key, { ...trainBody(a.params), dry_run: true }).catch((e) => e)));
    await lineup.close();
    const estimates = asked.slice(0, -1) as { model: string; estimated_runtime_seconds: number }[];
    expect(estimates.map((e) => e.model)).toEqual(["ridge", "random_forest", "mlp", "xgboost", "custom"]);
    const build = (h.world.schedule.phases[1].start - h.world.schedule.phases[0].start) / 1000;
    for (const e of estimates) expect(e.estimated_runtime_seconds).toBeLessThan(build / 2);
    expect(asked.at(-1)).toMatchObject({ status: 400, code: "train_model_unsupported" });
  });
});
