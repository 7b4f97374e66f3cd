import { describe, expect, it } from "vitest";
import { computeBudgets } from "../../../src/service/compute/budgets.js";
import type { JobView } from "../../../src/service/compute/job-view.js";
import { formatComputeBudgets } from "../../../src/tui/compute-budgets-text.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { requires } from "../../helpers/requires.js";

const ANN = "key-ann-00000001";
const BEN = "key-ben-00000002";
const SECOND = 1000;

describe("the compute budget table", () => {
  it("is absent on an event without a compute budget", () => {
    expect(computeBudgets(eventHarness().ctx)).toBeNull();
  });

  // No job here reaches its fit: they time out or are cancelled. Their launches check that the training Python imports each kind.
  requires("python", "training").it("gives each event agent its grant, charges, holds and the credits endpoint's remainder, by kind", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const t0 = h.clock.now();
    const launch = async (key: string, body: Record<string, unknown>) => (await h.service.train(key, { features: "all", ...body })) as JobView;
    // A forest allowed 36 s of a CPU: it times out at its maximum, charged 36 s at $0.10/h → 1 cent.
    await launch(ANN, { model: "random_forest", gpu: "CPU", max_hours: 0.01 });
    // An xgboost on an A100, cancelled after 30 s running: 30 s at $1.79/h → 2 cents.
    const xgb = await launch(ANN, { model: "xgboost", gpu: "A100" });
    // An mlp cancelled while queued (free), and a ridge still running at the end (its hold reserved).
    const mlp = await launch(BEN, { model: "mlp", gpu: "T4" });
    await h.service.cancelJob(BEN, mlp.job_id);
    await launch(BEN, { model: "ridge", gpu: "T4" });
    // ben's hosted machine (a CPU at $0.10/h), started and stopped 60 s later, runs no command: 1 cent.
    const machine = await h.service.startMachine(BEN);
    await h.at(t0 + 31 * SECOND);
    await h.service.cancelJob(ANN, xgb.job_id);
    await h.at(t0 + 60 * SECOND);
    await h.service.stopMachine(BEN, machine.machine_id);

    const budgets = computeBudgets(h.ctx);
    const kind = (k: string, jobs: number, runtime: number, spent: number) => ({ kind: k, jobs, completed: 0, runtime_seconds: runtime, spent_cents: spent });
    expect(budgets).toEqual({
      agents: [
        { agent: "ann", grant_cents: 500, spent_cents: 3, machine_cents: 0, reserved_cents: 0, remaining_cents: 497, by_kind: [kind("random_forest", 1, 36, 1), kind("xgboost", 1, 30, 2)], machines: [] },
        {
          agent: "ben",
          grant_cents: 500,
          spent_cents: 0,
          machine_cents: 1,
          reserved_cents: 38,
          remaining_cents: 461,
          by_kind: [kind("mlp", 1, 0, 0), kind("ridge", 1, 0, 0)],
          machines: [{ machine_id: machine.machine_id, status: "stopped", stop_reason: "stopped", runtime_seconds: 60, cost_cents: 1 }],
        },
      ],
      by_kind: [kind("random_forest", 1, 36, 1), kind("xgboost", 1, 30, 2), kind("mlp", 1, 0, 0), kind("ridge", 1, 0, 0)],
    });
    for (const [key, row] of [[ANN, budgets!.agents[0]], [BEN, budgets!.agents[1]]] as const) {
      const c = await h.service.computeCredits(key);
      expect([row.remaining_cents, row.reserved_cents, (row.spent_cents + row.machine_cents) / 100]).toEqual([c.available_cents, c.reserved_cents, c.total_spent_usd]);
      expect(row.grant_cents - row.spent_cents - row.machine_cents - row.reserved_cents).toBe(row.remaining_cents);
    }

    expect(formatComputeBudgets(budgets!)).toBe(
      [
        "compute budgets (USD)",
        "agent      grant       jobs    machine   reserved  remaining  by kind",
        "ann         5.00       0.03       0.00       0.00       4.97  random_forest 0.01, xgboost 0.02",
        "ben         5.00       0.00       0.01       0.38       4.61  mlp 0.00, ridge 0.00",
        "",
        "compute spent by kind (USD; runtime on the simulated clock)",
        "kind           jobs  completed    runtime      spent",
        "random_forest     1          0      0m36s       0.01",
        "xgboost           1          0      0m30s       0.02",
        "mlp               1          0      0m00s       0.00",
        "ridge             1          0      0m00s       0.00",
        "",
        "hosted machine sessions (USD; runtime on the simulated clock)",
        `agent  ${"machine".padEnd(machine.machine_id.length)}  state                 runtime      spent`,
        `ben    ${machine.machine_id}  stopped (stopped)       1m00s       0.01`,
        "",
      ].join("\n"),
    );
  });
});
