import { describe, expect, it } from "vitest";
import { KeptByBytes } from "../../src/domain/kept-by-bytes.js";

describe("values kept by bytes", () => {
  it("keeps each key's value while the budget holds, first come first kept, and makes the rest every time", () => {
    let made = 0;
    const kept = new KeptByBytes<object, { n: number; bytes: number }>(100, (v) => v.bytes);
    const [a, b, c] = [{}, {}, {}];
    const make = (bytes: number) => () => ({ n: ++made, bytes });
    const first = kept.get(a, make(60));
    expect(kept.get(a, make(60))).toBe(first);
    const second = kept.get(b, make(60)); // 120 > 100: made, not kept
    expect(kept.get(b, make(60))).not.toBe(second);
    const third = kept.get(c, make(40));
    expect(kept.get(c, make(40))).toBe(third);
    expect(kept.get(a, make(60))).toBe(first);
    expect(made).toBe(4);
  });
});
