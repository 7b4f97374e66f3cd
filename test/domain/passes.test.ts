import { expect, it } from "vitest";
import { passes, refuse } from "../../src/domain/errors.js";

it("passes: true without a refusal, false on one, and a bug propagates with its own stack", () => {
  expect(passes(() => 1)).toBe(true);
  expect(passes(() => {
    throw refuse("insufficient_scope", { what: "staking", needed: "a stake" });
  })).toBe(false);
  function brokenCheck(): never {
    throw new TypeError("a bug in a check");
  }
  let thrown: unknown;
  try {
    passes(brokenCheck);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  expect((thrown as Error).stack).toMatch(/brokenCheck/);
  expect(Error.stackTraceLimit).toBeGreaterThan(0); // restored
});
