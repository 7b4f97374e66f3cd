import { describe, expect, it } from "vitest";
import { advanceRounds } from "../../../src/service/cadence/cadence-steps.js";
import { roundByExped } from "../../../src/store/rounds.js";
import { countPrepares } from "../../helpers/query-plans.js";
import { harness } from "../../helpers/service-harness.js";

/** Counts how often the rounds-due query is prepared. */
function countDueQueries(db: ReturnType<typeof harness>["ctx"]["db"]): () => number {
  return countPrepares(db, "FROM rounds WHERE (status = 'scheduled' AND open_at <= ?)");
}

describe("advanceRounds", () => {
  it("asks the store once per instant while nothing is written, and again once the clock moves", async () => {
    const h = harness();
    const asked = countDueQueries(h.ctx.db);
    h.clock.set(h.round(1).open_at + 1);
    expect((await advanceRounds(h.ctx)).map((s) => s.kind)).toEqual(["open"]);
    await advanceRounds(h.ctx); // the open wrote: asked again, nothing more is due
    expect(asked()).toBe(2);
    await advanceRounds(h.ctx);
    expect(asked()).toBe(2);
    h.clock.set(h.round(1).open_at + 2);
    await advanceRounds(h.ctx);
    expect(asked()).toBe(3);
  });

  it("sees what a write made due at the same instant", async () => {
    const h = harness();
    const at = h.round(1).open_at + 1;
    h.clock.set(at);
    await advanceRounds(h.ctx);
    expect(await advanceRounds(h.ctx)).toEqual([]);
    const second = h.round(2).window;
    h.ctx.db.prepare("UPDATE rounds SET open_at = ? WHERE exped = ?").run(at, second);
    expect((await advanceRounds(h.ctx)).map((s) => [s.kind, s.round.exped])).toEqual([["open", second]]);
    expect(roundByExped(h.ctx.db, second)?.status).toBe("open");
  });
});
