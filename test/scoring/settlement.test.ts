import { describe, expect, it } from "vitest";
import { Rng } from "../../src/domain/rng.js";
import { prepareExped, scoreAgainst, scoreSubmissions } from "../../src/scoring/exped.js";

function round(rows: number, submissions: number, seed = "settlement-test") {
  const rng = new Rng(seed);
  const ids = Array.from({ length: rows }, () => rng.hex(16));
  const col = (f: () => number) => Float64Array.from({ length: rows }, f);
  const truth = {
    ids,
    target: col(() => Math.floor(rng.next() * 5) / 4),
    benchmark: col(() => rng.next()),
    core: Array.from({ length: 3 }, () => col(() => (rng.next() < 0.05 ? -1 : rng.int(10)))),
  };
  const subs = Array.from({ length: submissions }, (_, k) => {
    const prediction = col(() => (rng.next() < 0.01 ? NaN : rng.next()));
    // every third submission arrives in its own row order
    const order = k % 3 === 0 ? rng.shuffle(ids.map((_, i) => i)) : null;
    return order
      ? { ids: order.map((i) => ids[i]), prediction: Float64Array.from(order, (i) => prediction[i]) }
      : { ids, prediction };
  });
  return { truth, subs };
}

describe("scoreSubmissions", () => {
  it("on worker threads gives results bit-identical to scoreAgainst on this thread", async () => {
    const { truth, subs } = round(300, 100);
    const prepared = prepareExped(truth);
    const expected = subs.map((s) => scoreAgainst(prepared, s.ids, s.prediction));
    expect(await scoreSubmissions(truth, subs, { workers: 1 })).toStrictEqual(expected);
    expect(await scoreSubmissions(truth, subs, { workers: 0 })).toStrictEqual(expected);
    expect(new Set(expected.map((t) => t.corr)).size).toBeGreaterThan(90);
  });

  it("scores each round against its own truth on a worker kept from the round before", async () => {
    for (const seed of ["round-a", "round-b"]) {
      const { truth, subs } = round(200, 60, seed);
      const prepared = prepareExped(truth);
      expect(await scoreSubmissions(truth, subs, { workers: 1 })).toStrictEqual(subs.map((s) => scoreAgainst(prepared, s.ids, s.prediction)));
    }
  });

  it("reports a worker failure instead of hanging", async () => {
    const { truth, subs } = round(50, 40);
    // the last chunk goes to the worker (this thread takes the first)
    subs[39] = { ids: [truth.ids[0], truth.ids[0]], prediction: Float64Array.of(1, 2) };
    await expect(scoreSubmissions(truth, subs, { workers: 1 })).rejects.toThrow(/appears more than once/);
    subs[0] = subs[39];
    await expect(scoreSubmissions(truth, subs, { workers: 1 })).rejects.toThrow(/appears more than once/);
  });
});
