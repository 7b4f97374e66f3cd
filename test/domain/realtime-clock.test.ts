import { describe, expect, it } from "vitest";
import { RealtimeClock } from "../../src/domain/realtime-clock.js";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the realtime clock", () => {
  it("runs at speed x the wall clock, stands still while paused, and runs on from where it stood", async () => {
    const clock = new RealtimeClock(0, 10_000);
    await wait(5);
    expect(clock.now()).toBeGreaterThan(0);
    clock.pause();
    const held = clock.now();
    expect(clock.paused()).toBe(true);
    await wait(20);
    expect(clock.now()).toBe(held);
    clock.advance(60_000);
    expect(clock.now()).toBe(held + 60_000);
    clock.resume();
    expect(clock.paused()).toBe(false);
    const resumed = clock.now();
    expect(resumed).toBeGreaterThanOrEqual(held + 60_000);
    // Resuming starts from the held instant, not from where the wall clock would have taken it.
    expect(resumed - (held + 60_000)).toBeLessThan(20 * 10_000);
    await wait(5);
    expect(clock.now()).toBeGreaterThan(resumed);
  });
});
