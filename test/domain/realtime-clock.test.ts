import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RealtimeClock } from "../../src/domain/realtime-clock.js";

// The wall clock the adapter reads (Date.now) is faked: it moves only when the test moves it, so
// the figures are exact however busy the machine is.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const wallPasses = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe("the realtime clock", () => {
  it("runs at speed x the wall clock, stands still while paused, and runs on from where it stood", () => {
    const clock = new RealtimeClock(0, 10_000);
    wallPasses(5);
    expect(clock.now()).toBe(50_000);
    clock.pause();
    const held = clock.now();
    expect(clock.paused()).toBe(true);
    wallPasses(20);
    expect(clock.now()).toBe(held);
    clock.advance(60_000);
    expect(clock.now()).toBe(held + 60_000);
    clock.resume();
    expect(clock.paused()).toBe(false);
    // Resuming starts from the held instant, not from where the wall clock would have taken it.
    expect(clock.now()).toBe(held + 60_000);
    wallPasses(5);
    expect(clock.now()).toBe(held + 60_000 + 50_000);
  });
});
