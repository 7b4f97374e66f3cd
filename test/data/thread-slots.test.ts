import { describe, expect, it } from "vitest";
import { ThreadSlots } from "../../src/data/thread-slots.js";

/** A promise and the function that settles it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** After every callback already queued has run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("ThreadSlots", () => {
  it("runs at most `size` at once, the others in the order they came, and frees a slot whether the run succeeds or fails", async () => {
    const slots = new ThreadSlots(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      slots.run(async () => {
        started.push(i);
        await g.promise;
        if (i === 0) throw new Error("run 0 failed");
        return i;
      }),
    );
    await settled();
    expect(started).toEqual([0, 1]);
    gates[0].open();
    await expect(runs[0]).rejects.toThrow("run 0 failed");
    await settled();
    expect(started).toEqual([0, 1, 2]);
    gates[1].open();
    await expect(runs[1]).resolves.toBe(1);
    await settled();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2].open();
    gates[3].open();
    await expect(Promise.all(runs.slice(2))).resolves.toEqual([2, 3]);
  });

  it("refuses a size that is not a whole number of at least 1, naming it", () => {
    expect(() => new ThreadSlots(0)).toThrow("thread slots: size 0 is not a whole number of at least 1");
    expect(() => new ThreadSlots(1.5)).toThrow("size 1.5");
  });
});
