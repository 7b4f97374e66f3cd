import { describe, inject, it } from "vitest";
import { describeMissing, missingOf, type Need } from "./machine.js";

type Body = () => void;
type TestBody = () => unknown;
type Tests = { describe: (name: string, body: Body) => void; it: (name: string, body: TestBody, timeout?: number) => void };

/**
 * `describe` and `it` for tests that need Python, the sandbox or chromium (probed once by
 * test/global-setup.ts). Where the machine lacks one they are skipped, and the global setup has
 * said why in one line; under CI each becomes one failing test naming the packages to install.
 */
export function requires(...needs: Need[]): Tests {
  const machine = inject("machine");
  if (missingOf(machine, needs).length === 0) return { describe: (name, body) => describe(name, body), it: (name, body, timeout) => it(name, body, timeout) };
  if (!process.env.CI) return { describe: (name, body) => describe.skip(name, body), it: (name, body, timeout) => it.skip(name, body, timeout) };
  const fail = () => {
    throw new Error(`this test needs ${describeMissing(machine, needs)}`);
  };
  return { describe: (name) => describe(name, () => it("has what it needs", fail)), it: (name) => it(name, fail) };
}
