import { describe, expect, it } from "vitest";
import { replayControl } from "../../src/tui/replay-control.js";

const settled = async (p: Promise<void>): Promise<boolean> => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30))]);

describe("replayControl", () => {
  it("lets a step end at once flat out, holds it while paused and lets it go on resume", async () => {
    const control = replayControl(0);
    expect(await settled(control.afterStep())).toBe(true);
    control.setPaused(true);
    const held = control.afterStep();
    expect(await settled(held)).toBe(false);
    control.setPaused(false);
    expect(await settled(held)).toBe(true);
    expect(control.shouldStop()).toBe(false);
  });

  it("on quit, releases a paused step and asks the engine to stop", async () => {
    const control = replayControl(5);
    control.setPaused(true);
    const held = control.afterStep();
    expect(await settled(held)).toBe(false);
    control.quit();
    expect(await settled(held)).toBe(true);
    expect(control.shouldStop()).toBe(true);
    expect(await settled(control.afterStep())).toBe(true);
  });
});
