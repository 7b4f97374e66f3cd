import { describe, expect, it } from "vitest";
import { plan, recordStatements } from "../helpers/query-plans.js";
import {
  ANN, BEN, PRACTICE_UPLOAD, ROUND_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread, toPhase,
} from "../http/event-server.js";

describe("the upload table's indexes", () => {
  it("no query the service makes of uploads scans the table: uploads on both lanes, runs scored, boards, the pool", async () => {
    const s = await eventServer({ staking: { starting_stake_usdc: "10", min_stake_usdc: "1", max_slots: 2 } });
    const db = s.service.ctx.db;
    const statements = recordStatements(db);
    const validation = await splitIds(s, ANN, "validation");
    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    for (const [key, k] of [[ANN, 1], [BEN, 3]] as const) {
      const m = await newModel(s, key, `m${k}`);
      expect((await postForm(s, PRACTICE_UPLOAD, key, csvUpload(m, validation, spread(validation, k)))).status).toBe(202);
      expect((await postForm(s, ROUND_UPLOAD, key, csvUpload(m, live, spread(live, k)))).status).toBe(202);
      expect((await s.post("/api/v1/event/staking/allocations", { model: m, amount_usdc: "1" }, key)).status).toBe(200);
    }
    await s.advance({ seconds: 120 });
    await s.get("/api/v1/status", ANN);
    await s.get("/api/v1/diagnostics/board", ANN);
    await toPhase(s, "round_2");
    await s.get("/api/v1/event/rounds/round_1/board", ANN);
    const onUploads = [...statements].filter((sql) => /\b(FROM|JOIN|UPDATE)\s+uploads\b/.test(sql));
    expect(onUploads.length).toBeGreaterThanOrEqual(8);
    const scans = onUploads.flatMap((sql) => plan(db, sql).filter((line) => /^SCAN (uploads|u)\b/.test(line)).map((line) => `${line}: ${sql}`));
    expect(scans).toEqual([]);
  });

  it("the pass before every call finds the runs due to start scoring through their own index, not by reading every accepted run", async () => {
    const s = await eventServer();
    const db = s.service.ctx.db;
    // A store that has never held an upload is not asked for runs at all (lifecycle-tables.ts): file one first.
    const validation = await splitIds(s, ANN, "validation");
    await toPhase(s, "round_1");
    const m = await newModel(s, ANN, "m1");
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 1)))).status).toBe(202);
    const statements = recordStatements(db);
    await s.get("/api/v1/status", ANN);
    const due = [...statements].filter((sql) => /\bFROM uploads\b/.test(sql) && /\bscoring_at <= \?/.test(sql));
    expect(due).toHaveLength(1);
    expect(plan(db, due[0])).toContain("SEARCH uploads USING INDEX uploads_queued (status=? AND scoring_at<?)");
  });
});
