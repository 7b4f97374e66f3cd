import { once } from "node:events";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/commands/serve.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { ALICE, ORGANISER } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-serve-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const headers = (key: string) => ({ "X-API-Key": key, "content-type": "application/json" });

describe("startServer", () => {
  it("binds loopback, finishes in-flight requests on close, then stops accepting", async () => {
    const s = await startServer({ scenario: smallScenario(), port: 0, log: () => {} });
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // A request whose body is still arriving when close() is called: the server's "100 Continue" says it has the request.
    const body = JSON.stringify({ name: "in-flight" });
    const req = request(`${s.url}/api/v1/models`, { method: "POST", headers: { ...headers(ALICE), "transfer-encoding": "chunked", expect: "100-continue" } });
    const received = once(req, "continue");
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
    });
    req.write(body.slice(0, 5));
    await received;
    const closing = s.close();
    req.end(body.slice(5));
    const done = await answer;
    expect(done.status).toBe(201);
    expect(JSON.parse(done.text)).toMatchObject({ name: "in-flight", status: "created" });
    await closing;
    await expect(fetch(`${s.url}/api/v1/scoring`)).rejects.toThrow();
  });

  it("keeps the store in --db: a restart resumes models, rounds and the clock", async () => {
    const db = join(dir, "serve.sqlite");
    const first = await startServer({ scenario: smallScenario(), port: 0, db, log: () => {} });
    await fetch(`${first.url}/api/v1/models`, { method: "POST", headers: headers(ALICE), body: JSON.stringify({ name: "kept" }) });
    await fetch(`${first.url}/sim/v1/clock/advance`, { method: "POST", headers: headers(ORGANISER), body: JSON.stringify({ until: "2026-01-06T00:00:00Z" }) });
    await first.close();

    const second = await startServer({ scenario: smallScenario(), port: 0, db, log: () => {} });
    try {
      const models = await (await fetch(`${second.url}/api/v1/models`, { headers: headers(ALICE) })).json();
      expect(models.models.map((m: { name: string }) => m.name)).toEqual(["kept"]);
      const clock = await (await fetch(`${second.url}/sim/v1/clock`, { headers: headers(ORGANISER) })).json();
      expect(clock.now).toBe("2026-01-06T00:00:00.000Z");
      const current = await (await fetch(`${second.url}/api/v1/rounds/current`, { headers: headers(ALICE) })).json();
      expect(current).toMatchObject({ index: 2, status: "open" });
    } finally {
      await second.close();
    }
    await expect(startServer({ scenario: smallScenario({ seed: 8 }), port: 0, db, log: () => {} })).rejects.toThrow(/another scenario or seed/);
  });
});
