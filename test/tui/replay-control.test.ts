import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { replayControl } from "../../src/tui/replay-control.js";

// The pace and the yield run on faked timers: "at once" and "held" are judged in the test's own
// time, however busy the machine is.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `p` settles within `ms` of the faked time. */
async function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe("replayControl", () => {
  it("lets a step end at once flat out, holds it while paused and lets it go on resume", async () => {
    const control = replayControl(0);
    expect(await settlesWithin(control.afterStep(), 0)).toBe(true);
    control.setPaused(true);
    const held = control.afterStep();
    expect(await settlesWithin(held, 60_000)).toBe(false);
    control.setPaused(false);
    expect(await settlesWithin(held, 0)).toBe(true);
    expect(control.shouldStop()).toBe(false);
  });

  it("on quit, releases a paused step and asks the engine to stop", async () => {
    const control = replayControl(5);
    control.setPaused(true);
    const held = control.afterStep();
    expect(await settlesWithin(held, 60_000)).toBe(false);
    control.quit();
    expect(await settlesWithin(held, 0)).toBe(true);
    expect(control.shouldStop()).toBe(true);
    const next = control.afterStep();
    expect(await settlesWithin(next, 4)).toBe(false);
    expect(await settlesWithin(next, 1)).toBe(true);
  });
});
