import { beforeAll, expect } from "vitest";
import { requires } from "../helpers/requires.js";
import { ANN, BEN, PRACTICE_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread } from "./event-server.js";
import type { TestServer } from "./server.js";

const MACHINES = "/api/v1/compute/machines";
/** A workspace of 8 MiB for the whole session: the train split fits, a 16 MiB file does not. */
const compute = { compute: { budget_usd: "20", rate_card_usd_per_hr: { CPU: "36.00" }, machine: { idle_minutes: 10, daily_max_hours: 1, tier: "CPU", workspace_mb: 8 } } };

let s: TestServer;
beforeAll(async () => {
  s = await eventServer(compute);
});

requires("sandbox").it("a machine command filling its workspace gets a clear error; another agent's create_model and uploads meanwhile get their normal answers", async () => {
  const started = await s.post(MACHINES, undefined, ANN);
  expect(started.status).toBe(201);
  const machine = started.json.machine_id as string;
  const run = (command: string) => s.post(`${MACHINES}/${machine}/run`, { command }, ANN);
  const filling = run("head -c 16777216 /dev/zero > fill; echo exit=$?; ls -l fill | awk '{print $5}'");
  const validation = await splitIds(s, BEN, "validation");
  const others = [];
  for (let i = 0; i < 3; i++) {
    const model = await newModel(s, BEN, `beside-${i}`);
    others.push(await postForm(s, PRACTICE_UPLOAD, BEN, csvUpload(model, validation, spread(validation, i + 1))));
  }
  const filled = await filling;
  expect(filled.status).toBe(200);
  expect(filled.json.output).toMatch(/No space left on device\nexit=1\n\d+\n$/);
  // What it wrote stopped at the workspace's size.
  expect(Number(filled.json.output.trim().split("\n").pop())).toBeLessThan(8 * 1024 ** 2);
  expect(others.map((a) => a.status)).toEqual([202, 202, 202]);
  // The full workspace keeps answering its owner, and after the file is gone it takes files again.
  const after = await run("rm fill && echo freed > note && cat note");
  expect(after.json).toMatchObject({ outcome: "exited", exit_code: 0, output: "freed\n" });
  expect((await s.post("/api/v1/models", { name: "after" }, BEN)).status).toBe(201);
  expect((await s.call("DELETE", `${MACHINES}/${machine}`, { key: ANN })).status).toBe(200);
}, 120_000);
