import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect } from "vitest";
import { requires } from "../helpers/requires.js";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { eventLines } from "../../src/store/event-log.js";
import { openDb } from "../../src/store/db.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario } from "../../sim/engine.js";
import { smallEvent } from "../helpers/small-event.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-machine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The small event with a compute grant and a 5-minute idle stop: one agent on the hosted machine, one plain ridge. */
const scenario = smallEvent(
  {
    agents: [
      { name: "mia", key: "key-mia-00000001", scope: "event", strategy: "hosted_machine" },
      { name: "ann", key: "key-ann-00000003", scope: "event", strategy: "event_ridge" },
    ],
  },
  { compute: { budget_usd: "5", machine: { idle_minutes: 5 } } },
);
const world = buildWorld(deploymentOf(scenario));

describe("a replay with the hosted machine", () => {
  requires("sandbox").it("starts a machine in the build phase, runs its commands, stops it when idle, and logs the same events twice", async () => {
    const log: string[] = [];
    const db = join(dir, "machine.db");
    const first = await runScenario(scenario, { world, db, onEvent: (e) => e.kind === "log" && log.push(e.line) });
    const store = openDb(db);
    const sessions = store.prepare("SELECT status, stop_reason, started_at, stopped_at, runtime_seconds, cost_cents FROM machine_sessions").all() as {
      stop_reason: string;
      started_at: number;
      stopped_at: number;
      runtime_seconds: number;
      cost_cents: number;
    }[];
    const commands = store.prepare("SELECT n, outcome, exit_code, output FROM machine_commands ORDER BY n").all();
    const events = [...eventLines(store)].map((l) => JSON.parse(l)).filter((e: { type: string }) => e.type.startsWith("machine."));
    const types = events.map((e: { type: string }) => e.type);
    // The log keeps what the caller decided, never what the host's run made of it.
    for (const e of events.filter((x: { type: string }) => x.type === "machine.command")) expect(Object.keys(e.payload).sort()).toEqual(["command", "machine_id", "n"]);
    store.close();
    // 10 train expeds × 40 rows: the line count (with the header) and pandas' view of the same file.
    expect(commands).toEqual([
      { n: 1, outcome: "exited", exit_code: 0, output: "401\n" },
      { n: 2, outcome: "exited", exit_code: 0, output: "400 rows 10 expeds\n" },
    ]);
    expect(sessions).toHaveLength(1);
    const [s] = sessions;
    // Commands happen at the instant they were asked: idle from the start, stopped 5 simulated minutes later at $0.10/h.
    expect(s).toMatchObject({ status: "stopped", stop_reason: "idle", runtime_seconds: 300, cost_cents: 1 });
    expect(s.stopped_at - s.started_at).toBe(300_000);
    expect(types).toEqual(["machine.started", "machine.command", "machine.command", "machine.stopped"]);
    expect(log.some((l) => l.includes("stopped (idle)") && l.includes("2 commands on record"))).toBe(true);
    expect((await runScenario(scenario, { world })).digest).toBe(first.digest);
  });
});
