import { describe, expect, it } from "vitest";
import { Rng } from "../../src/domain/rng.js";
import { RowIdMint } from "../../src/data/row-ids.js";

describe("RowIdMint", () => {
  it("mints 16-hex ids and redraws an id it already handed out", () => {
    const replay = ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"];
    const rng = { hex: (n: number) => replay.shift()!.slice(0, n) } as unknown as Rng;
    const mint = new RowIdMint();
    expect(mint.mint(rng, 2)).toEqual(["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"]);
    expect(mint.mint(rng, 1)).toEqual(["cccccccccccccccc"]);
  });

  it("draws the same ids from the same seed", () => {
    expect(new RowIdMint().mint(new Rng(3), 5)).toEqual(new RowIdMint().mint(new Rng(3), 5));
  });
});
