import { describe, expect, it } from "vitest";
import { plan, recordStatements } from "../helpers/query-plans.js";
import { ANN, BEN, eventServer, newModel } from "../http/event-server.js";

describe("the models table's index by agent", () => {
  it("a key's status and its model lookups by label read its own models, never scan everyone's", async () => {
    const s = await eventServer();
    const db = s.service.ctx.db;
    for (const key of [ANN, BEN]) for (const label of ["a", "b", "c"]) await newModel(s, key, label);
    const statements = recordStatements(db);
    const status = await s.get("/api/v1/status", ANN);
    expect(status.status).toBe(200);
    expect(status.json.models).toHaveLength(3);
    expect((await s.post("/api/v1/models", { name: "a" }, ANN)).json.status).toBe("already_exists");
    const byAgent = [...statements].filter((sql) => /\bFROM models\b/.test(sql) && /\bagent_id = \?/.test(sql));
    expect(byAgent.length).toBeGreaterThanOrEqual(2);
    const scans = byAgent.flatMap((sql) => plan(db, sql).filter((line) => /^SCAN models\b/.test(line)).map((line) => `${line}: ${sql}`));
    expect(scans).toEqual([]);
  });

  it("a key's status names its live models from an index alone, never looking each one up in the table", async () => {
    const s = await eventServer();
    const db = s.service.ctx.db;
    for (const label of ["a", "b", "c"]) await newModel(s, ANN, label);
    const statements = recordStatements(db);
    expect((await s.get("/api/v1/status", ANN)).json.models).toHaveLength(3);
    const names = [...statements].filter((sql) => /^SELECT name FROM models\b/.test(sql) && /\bagent_id = \?/.test(sql));
    expect(names).toHaveLength(1);
    expect(plan(db, names[0])).toEqual([expect.stringMatching(/^SEARCH models USING COVERING INDEX models_agent \(agent_id=\?\)$/)]);
  });
});
