import { MINUTE } from "../../src/domain/clock.js";
import type { Rng } from "../../src/domain/rng.js";
import type { RoundSlot } from "./strategy.js";

/** Somewhere in the first hours of the window: a minute drawn from [from, to) after it opens. */
export function duringWindow(slot: RoundSlot, rng: Rng, from = 30, to = 8 * 60): number {
  return slot.open_at + (from + rng.int(to - from)) * MINUTE;
}
