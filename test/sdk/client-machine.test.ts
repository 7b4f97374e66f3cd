import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { ApiError, BasecampClient, SimControl } from "../../src/sdk/client.js";
import { smallEvent } from "../helpers/small-event.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("the SDK's machine methods against basecamp serve", () => {
  it("starts a machine, reads the train split from its workspace, stops it, and reads its records", async () => {
    const scenario = smallEvent({}, { compute: { budget_usd: "5", machine: { idle_minutes: 5 } } });
    const server = await startServer({ scenario, port: 0, host: "127.0.0.1", clock: "manual", log: () => {} });
    servers.push(server);
    const control = new SimControl({ baseUrl: server.url, organiserKey: server.organiserKey });
    const ann = new BasecampClient({ baseUrl: server.url, apiKey: "key-ann-00000001" });
    const m = await ann.startMachine();
    expect(await ann.getMachine(m.machine_id)).toEqual(m);
    const train = new TextDecoder().decode(await ann.readMachineFile(m.machine_id, m.workspace.train_file));
    // The header and 10 expeds × 40 rows, in the columns the data routes serve.
    expect(train.split("\n").filter((l) => l.length > 0)).toHaveLength(401);
    expect(train.startsWith("id,exped,")).toBe(true);
    await control.advance({ seconds: 90 });
    const stopped = await ann.stopMachine(m.machine_id);
    expect(stopped).toMatchObject({ status: "stopped", stop_reason: "stopped", runtime_seconds: 90, cost_cents: 1 });
    expect(await ann.getMachine(m.machine_id)).toEqual(stopped);
    const ben = new BasecampClient({ baseUrl: server.url, apiKey: "key-ben-00000002" });
    expect(await ben.getMachine(m.machine_id).catch((e: unknown) => e)).toMatchObject({ status: 404, code: "machine_not_found" });
    const gone = await ann.readMachineFile(m.machine_id, m.workspace.train_file).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 410 });
    expect((await ann.listMachines()).machines).toMatchObject([{ machine_id: m.machine_id, cost_cents: 1, commands: [] }]);
    expect(await ann.computeCredits()).toMatchObject({ reserved_cents: 0, total_spent_usd: 0.01 });
  });
});
