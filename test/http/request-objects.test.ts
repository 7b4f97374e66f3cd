import { describe, expect, it } from "vitest";

// Every web Request made in this file's module graph is counted: the server's adapter takes the
// global class when it is imported, so the count is in place before anything is imported.
const Global = globalThis.Request;
let made = 0;
globalThis.Request = class extends Global {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    made++;
  }
} as typeof Request;

const { ANN, PRACTICE_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread } = await import("./event-server.js");

describe("the served path makes no web Request for a status read or an upload", () => {
  it("reads the status and takes practice uploads over a socket with none made on the server", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    const models = await Promise.all([1, 2, 3].map((k) => newModel(s, ANN, `m${k}`)));
    const before = made;
    for (let k = 0; k < 3; k++) {
      expect((await s.get("/api/v1/status", ANN)).status).toBe(200);
      expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(models[k], validation, spread(validation, k + 1)))).status).toBe(202);
    }
    expect(made - before).toBe(0);
  });
});
