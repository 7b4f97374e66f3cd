import { describe, expect, it } from "vitest";
import type { Frame } from "../../src/data/frame.js";
import { Rng } from "../../src/domain/rng.js";
import { scoreFrame, scoreFrameInParallel } from "../../src/scoring/backtest.js";

const columns = { prediction: "p", target: "t", benchmark: "b", core: ["f0", "f1"] };

/** `expeds` expeds of `rows` rows each, interleaved when `mixed` (no exped contiguous). */
function frame(expeds: number, rows: number, mixed: boolean): Frame {
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

describe("scoreFrameInParallel", () => {
  it("gives results bit-identical to scoreFrame on one thread, contiguous or interleaved expeds", async () => {
    for (const mixed of [false, true]) {
      const f = frame(30, 200, mixed);
      const expected = scoreFrame(f, columns);
      expect(expected.map((e) => e.exped)).toEqual([...expected.map((e) => e.exped)].sort());
      expect(await scoreFrameInParallel(f, columns, { workers: 1 })).toStrictEqual(expected);
      expect(await scoreFrameInParallel(f, columns, { workers: 0 })).toStrictEqual(expected);
    }
  });

  it("names the frame row of a repeated id, on a worker too", async () => {
    const f = frame(30, 20, false);
    f.ids[599] = f.ids[590]; // exped e29, the 23rd in byte order: in the third chunk of 8
    await expect(scoreFrameInParallel(f, columns, { workers: 1 })).rejects.toThrow(/row 600: id '[0-9a-f]+' appears more than once in exped 'e29'/);
    expect(() => scoreFrame(f, columns)).toThrow(/row 600: .* exped 'e29'/);
  });
});
