import { describe, expect, it } from "vitest";
import { IntakeSlots } from "../../../src/service/event/intake-slots.js";
import { refusal } from "../../helpers/refusal.js";

const saturated = (fn: () => unknown) => {
  const e = refusal(fn);
  return { status: e.status, code: e.code, retry: e.headers["Retry-After"] };
};
const SATURATED = { status: 503, code: "lane_saturated", retry: "5" };

describe("IntakeSlots", () => {
  it("gives one agent at most its share and the lane at most its capacity", () => {
    const lane = new IntakeSlots(3, 2);
    const ann = [lane.take("ann"), lane.take("ann")];
    expect(saturated(() => lane.take("ann"))).toEqual(SATURATED);
    const ben = lane.take("ben");
    expect(saturated(() => lane.take("cal"))).toEqual(SATURATED);
    ben();
    lane.take("cal");
    ann[0]();
    lane.take("ann");
    expect(saturated(() => lane.take("ben"))).toEqual(SATURATED);
  });

  it("gives a place back once, however often its release is called", () => {
    const lane = new IntakeSlots(2, 1);
    const ann = lane.take("ann");
    ann();
    ann();
    lane.take("ben");
    lane.take("ann");
    expect(saturated(() => lane.take("cal"))).toEqual(SATURATED);
  });
});
