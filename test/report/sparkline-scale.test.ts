import { describe, expect, it } from "vitest";
import { domainWithZero, niceDomain, ticks } from "../../src/report/scale.js";
import { lastOfBuckets, sparkline } from "../../src/report/sparkline.js";

describe("sparkline", () => {
  it("maps the domain's min to ▁ and its max to █", () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7], { min: 0, max: 7 })).toBe("▁▂▃▄▅▆▇█");
    expect(sparkline([-1, 0, 1], domainWithZero([-1, 1]))).toBe("▁▅█");
  });

  it("draws a series on the caller's scale, so a smaller one stays low", () => {
    expect(sparkline([0.1, 0.2], { min: 0, max: 1 })).toBe("▂▂");
  });

  it("is flat for a constant series, even on a domain of one point", () => {
    expect(sparkline([0, 0, 0], domainWithZero([0]))).toBe("▁▁▁");
  });
});

describe("lastOfBuckets", () => {
  it("keeps a short series whole", () => {
    expect(lastOfBuckets([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });

  it("keeps the last value of each bucket, so the final value stays", () => {
    expect(lastOfBuckets([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4)).toEqual([3, 5, 8, 10]);
  });
});

describe("ticks", () => {
  it("steps by 1, 2 or 5 times a power of ten across a domain", () => {
    expect(ticks({ min: -0.056, max: 0.25 }, 10)).toEqual([-0.05, 0, 0.05, 0.1, 0.15, 0.2, 0.25].map((v) => expect.closeTo(v, 12)));
    expect(ticks({ min: -0.056, max: 0.25 }, 5)).toEqual([0, 0.1, 0.2]);
    expect(ticks({ min: 0, max: 0 }, 5)).toEqual([0]);
  });
});

describe("niceDomain", () => {
  it("widens a domain out to round ticks, and a point to ±1", () => {
    expect(niceDomain({ min: -0.056, max: 0.25 }, 5)).toEqual({ min: expect.closeTo(-0.1, 12), max: expect.closeTo(0.3, 12) });
    expect(niceDomain({ min: 0, max: 0.2 }, 5)).toEqual({ min: 0, max: expect.closeTo(0.2, 12) });
    expect(niceDomain({ min: 0, max: 0 }, 5)).toEqual({ min: -1, max: 1 });
  });
});
