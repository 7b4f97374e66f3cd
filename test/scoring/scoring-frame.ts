import type { Frame } from "../../src/domain/frame.js";
import { Rng } from "../../src/domain/rng.js";

/** Columns of `scoringFrame`, as `scoreFrame` takes them. */
export const columns = { prediction: "p", target: "t", benchmark: "b", core: ["f0", "f1"] };

/** A small frame to score: `expeds` expeds of `rows` rows each, interleaved when `mixed` (no exped contiguous). */
export function scoringFrame(expeds: number, rows: number, mixed: boolean): Frame {
  const rng = new Rng("backtest-test");
  const n = expeds * rows;
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  return {
    ids: Array.from({ length: n }, () => rng.hex(16)),
    exped: Array.from({ length: n }, (_, i) => `e${mixed ? i % expeds : Math.floor(i / rows)}`),
    columns: {
      p: col(() => (rng.next() < 0.01 ? NaN : rng.next())),
      t: col(() => rng.int(5) / 4),
      b: col(() => rng.next()),
      f0: col(() => (rng.next() < 0.05 ? -1 : rng.int(10))),
      f1: col(() => rng.int(3)),
    },
  };
}
