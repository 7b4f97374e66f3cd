import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { costCents } from "../../../../src/service/compute/estimate.js";
import { inProcessClient } from "../../../../src/service/in-process-client.js";
import { affordableSeconds, MAX_COMMANDS } from "../../../../src/service/compute/machine/sessions.js";
import { eventHarness } from "../../../helpers/event-harness.js";

const ANN = "key-ann-00000001";
const BEN = "key-ben-00000002";

/** Set to make the next workspace's directory fail, as a full disk would. */
const failing = vi.hoisted(() => ({ next: false }));
vi.mock("../../../../src/participant/work-dir.js", async (load) => {
  const real = await load<typeof import("../../../../src/participant/work-dir.js")>();
  return {
    ...real,
    makeWorkDir: (bytes: number) => {
      if (!failing.next) return real.makeWorkDir(bytes);
      failing.next = false;
      return Promise.reject(new Error("no space left on device"));
    },
  };
});

describe("a machine session's limits", () => {
  it("holds at most the available credit: the seconds it affords cost, rounded up, no more than the credit, and one more would not", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 100_000_000 }), (cents, rate) => {
        const s = affordableSeconds(cents, rate);
        expect(costCents(s, rate)).toBeLessThanOrEqual(cents);
        expect(costCents(s + 1, rate)).toBeGreaterThan(cents);
      }),
    );
  });

  // The cap refuses before the sandbox is reached: no command runs here.
  it(`refuses a command past the session's ${MAX_COMMANDS}, naming the cap, and records nothing`, async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const m = await h.service.startMachine(BEN);
    const insert = h.ctx.db.prepare(
      "INSERT INTO machine_commands (machine_id, n, command, ran_at, outcome, exit_code, output, output_bytes, output_truncated) VALUES (?, ?, 'true', 0, 'exited', 0, '', 0, 0)",
    );
    for (let n = 1; n <= MAX_COMMANDS; n++) insert.run(m.machine_id, n);
    await expect(h.service.runOnMachine(BEN, m.machine_id, { command: "ls" })).rejects.toMatchObject({
      code: "machine_command_cap",
      status: 409,
      message: `Machine ${m.machine_id} has run ${MAX_COMMANDS} commands, the most one session runs; stop it and start another to run more.`,
    });
    const count = h.ctx.db.prepare("SELECT COUNT(*) AS c FROM machine_commands WHERE machine_id = ?").get(m.machine_id) as { c: number };
    expect(count.c).toBe(MAX_COMMANDS);
    await h.service.stopMachine(BEN, m.machine_id);
  });

  it("leaves no running machine and no hold when its workspace cannot be made", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    failing.next = true;
    await expect(h.service.startMachine(BEN)).rejects.toThrow("no space left on device");
    expect(h.ctx.db.prepare("SELECT COUNT(*) AS c FROM machine_sessions").get()).toEqual({ c: 0 });
    const m = await h.service.startMachine(BEN);
    expect(m.status).toBe("running");
    await h.service.stopMachine(BEN, m.machine_id);
  });

  it("reads one session through the in-process client, running and stopped; another agent's is not found", async () => {
    const h = eventHarness({ compute: { budget_usd: "5" } });
    const ben = inProcessClient(h.service, BEN);
    const m = await ben.startMachine();
    expect(await ben.getMachine(m.machine_id)).toEqual(m);
    const stopped = await ben.stopMachine(m.machine_id);
    expect(stopped.status).toBe("stopped");
    expect(await ben.getMachine(m.machine_id)).toEqual(stopped);
    await expect(inProcessClient(h.service, ANN).getMachine(m.machine_id)).rejects.toMatchObject({ code: "machine_not_found", status: 404 });
  });
});
