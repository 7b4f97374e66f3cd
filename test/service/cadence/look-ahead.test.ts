import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/store/db.js";
import { countPrepares } from "../../helpers/query-plans.js";
import { eventHarness } from "../../helpers/event-harness.js";

const ANN = "key-ann-00000001";

/** Counts the plans: the look-ahead asks for the jobs to fit once per plan. */
const countPlans = (db: Db) => countPrepares(db, "FROM compute_jobs WHERE status IN ('queued', 'running')");

describe("lookAhead", () => {
  it("plans again only once the store or the clock has moved: a read-only call does not replan", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const plans = countPlans(h.ctx.db);
    // The jobs are asked for once the store holds one (lifecycle-tables.ts): the train call's write plans.
    await h.service.train(ANN, { features: "all", model: "ridge" });
    expect(plans()).toBe(1);
    await h.service.listJobs(ANN);
    await h.service.computeCredits(ANN);
    expect(plans()).toBe(1);
    h.clock.set(h.clock.now() + 1);
    await h.service.listJobs(ANN);
    expect(plans()).toBe(2);
    await h.service.listJobs(ANN);
    expect(plans()).toBe(2);
    await h.service.idle(); // stops the runs and forgets their plan: the next call plans afresh
    await h.service.listJobs(ANN);
    expect(plans()).toBe(3);
  });
});
