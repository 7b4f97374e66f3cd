import { beforeAll, describe, expect } from "vitest";
import { predictPickles } from "../helpers/predict-pickles.js";
import { requires } from "../helpers/requires.js";
import { ALICE, BOB, testServer, type TestServer } from "./server.js";

/** The small tournament with 5 s validations; round 1 is open. */
let s: TestServer;
beforeAll(async () => {
  s = await testServer({ auto_submit: { validation_seconds: 5 } });
  expect((await s.post("/api/v1/models", { name: "alice-slow" }, ALICE)).status).toBe(201);
});

describe("a participant's model run off the service's serial path", () => {
  requires("python").it("answers another agent's status while one agent's slow validation predict runs, and applies the verdict when its instant comes", async () => {
    const pkl = (await predictPickles())("slow_answer");
    const form = new FormData();
    form.set("file", new Blob([pkl as Uint8Array<ArrayBuffer>]), "predict.pkl");
    const accepted = await s.call("POST", "/api/v1/models/alice-slow/upload", { key: ALICE, raw: form });
    expect(accepted.status).toBe(202);

    // The organiser's advance past the validation instant cannot answer before the 3 s predict has
    // finished; Bob's status, asked once the service has the advance, must not wait for that run.
    const order: string[] = [];
    const received = advanceReceived(s);
    const advanced = s.advance({ seconds: 5 }).then((a) => (order.push("validation applied"), a));
    await received;
    const status = await s.get("/api/v1/status", BOB);
    order.push("other agent's status");
    expect(status.status).toBe(200);
    expect((await advanced).status).toBe(200);
    expect(order).toEqual(["other agent's status", "validation applied"]);

    const done = await s.get("/api/v1/models/alice-slow/upload/status", ALICE);
    expect(done.json).toMatchObject({ status: "validated", upload_id: accepted.json.upload_id });
  });
});

/** Resolves once the service has been handed the next clock advance (the server's request reached it). */
function advanceReceived(server: TestServer): Promise<void> {
  const { service } = server;
  const advance = service.advanceClock;
  return new Promise((resolve) => {
    service.advanceClock = (...args) => {
      service.advanceClock = advance;
      const answer = advance(...args);
      resolve();
      return answer;
    };
  });
}
