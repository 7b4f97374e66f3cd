import { MINUTE } from "../../src/domain/clock.js";
import type { Rng } from "../../src/domain/rng.js";
import type { RoundSlot } from "./strategy.js";

/** Somewhere in the first hours of the window: a minute drawn from [from, to) after it opens. */
export function duringWindow(slot: RoundSlot, rng: Rng, from = 30, to = 8 * 60): number {
  return slot.open_at + (from + rng.int(to - from)) * MINUTE;
}

/** A whole second between the given shares of the slot's span, e.g. (0.1, 0.5): its first half after a tenth. */
export function withinSlot(slot: RoundSlot, rng: Rng, from: number, to: number): number {
  const span = (slot.close_at - slot.open_at) / 1000;
  const lo = Math.floor(span * from);
  const hi = Math.max(lo + 1, Math.floor(span * to));
  return slot.open_at + (lo + rng.int(hi - lo)) * 1000;
}
