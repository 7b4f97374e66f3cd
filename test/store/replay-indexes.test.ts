import { describe, expect, it } from "vitest";
import { plan, recordStatements } from "../helpers/query-plans.js";
import { harness } from "../helpers/service-harness.js";

const KEYS = ["key-alice-0001", "key-bob-00000002"];

describe("the replay's indexes", () => {
  it("no query a season makes for one round (or for the rounds due) scans rounds, instruments, submissions or scores, or sorts a round's rows", async () => {
    const h = harness();
    const statements = recordStatements(h.ctx.db);
    for (const key of KEYS) await h.service.createModel(key, { name: `m-${key.slice(4, 8)}` });
    for (let i = 1; i <= h.world.schedule.rounds.length; i++) {
      h.clock.set(h.round(i).open_at);
      for (const key of KEYS) {
        const { exped, instrument_ids } = await h.service.instruments(key);
        const predictions = instrument_ids.map((instrument_id, k) => ({ instrument_id, prediction: (k % 10) / 10 }));
        await h.service.submit(key, { model_id: `m-${key.slice(4, 8)}`, exped, predictions });
      }
      h.clock.set(h.round(i).resolves_at);
      await h.service.sync();
      expect((await h.service.roundBoard(KEYS[0], h.round(i).window)).rows).toHaveLength(KEYS.length);
    }
    const keyed = [...statements].filter((sql) => /\b(FROM|JOIN|UPDATE)\s+(rounds|instruments|submissions|scores)\b/.test(sql) && /\bWHERE\b/.test(sql));
    expect(keyed.length).toBeGreaterThanOrEqual(8);
    // Sorting what a search found is fine for rounds (a few are due at a time), never for a round's rows.
    const perRound = (sql: string) => /\b(instruments|submissions|scores)\b/.test(sql);
    const slow = keyed.flatMap((sql) =>
      plan(h.ctx.db, sql)
        .filter((line) => /^SCAN (rounds|instruments|submissions|scores|s|r)\b/.test(line) || (perRound(sql) && /TEMP B-TREE/.test(line)))
        .map((line) => `${line}: ${sql}`),
    );
    expect(slow).toEqual([]);
  });
});
