import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario } from "../../sim/engine.js";
import { loadScenario } from "../../sim/scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-auto-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = loadScenario(new URL("../../scenarios/auto-submit-tournament.json", import.meta.url).pathname);
const world = buildWorld(deploymentOf(scenario));

requires("python").describe("scenarios/auto-submit-tournament.json", () => {
  it("replays to the same digest, and its auto entries are scored on the standings", async () => {
    const db = join(dir, "whole.db");
    const a = await runScenario(scenario, { world, db });
    const b = await runScenario(scenario, { world });
    expect(a.finished).toBe(true);
    expect(b.digest).toBe(a.digest);

    const store = new Database(db, { readonly: true });
    const count = (type: string) => (store.prepare("SELECT COUNT(*) AS n FROM events WHERE type = ?").get(type) as { n: number }).n;
    // Rounds 2-8 but the empty round 4: six rounds for each of the two lane models.
    expect(count("submission.auto")).toBe(12);
    expect(count("auto_run.skipped")).toBe(1);
    expect(count("model_upload.validated")).toBe(2);
    const scored = store
      .prepare(
        `SELECT m.name, s.source, COUNT(*) AS n FROM scores x JOIN submissions s ON s.model_id = x.model_id AND s.exped = x.exped
         JOIN models m ON m.id = x.model_id WHERE m.name IN ('autopilot', 'copilot') GROUP BY m.name, s.source ORDER BY m.name, s.source`,
      )
      .all() as { name: string; source: string; n: number }[];
    store.close();
    expect(scored.find((r) => r.name === "autopilot")).toEqual({ name: "autopilot", source: "auto", n: 6 });
    // copilot's hand-made ridge replaced the lane's entry in some rounds: manual wins.
    const copilot = scored.filter((r) => r.name === "copilot");
    expect(copilot.map((r) => r.source)).toEqual(["auto", "manual"]);
    expect(copilot.reduce((n, r) => n + r.n, 0)).toBe(6);

    const autopilot = a.board.rows.find((row) => row.model === "autopilot");
    expect(autopilot?.rounds_scored).toBe(6);
  });

  it("resumes a run stopped mid-season to the same digest", async () => {
    const whole = await runScenario(scenario, { world });
    const db = join(dir, "resume.db");
    const first = await runScenario(scenario, { world, db, stopAfter: Math.floor(whole.steps / 2) });
    expect(first.finished).toBe(false);
    expect((await runScenario(scenario, { world, db, resume: true })).digest).toBe(whole.digest);
  });
});
