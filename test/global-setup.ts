import type { TestProject } from "vitest/node";
import { describeMissing, missingOf, probeMachine, type Machine, type Need } from "./helpers/machine.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** What this machine has of what some tests need (test/helpers/requires.ts reads it). */
    machine: Machine;
  }
}

const ALL: Need[] = ["python", "sandbox", "chromium", "venv", "ray", "training", "scipy"];

/** Probes the machine once for the whole run, and says once which tests are skipped and why. */
export default async function setup(project: TestProject): Promise<void> {
  const machine = await probeMachine();
  project.provide("machine", machine);
  if (missingOf(machine, ALL).length === 0) return;
  const verdict = process.env.CI ? "CI: failing the tests that need" : "skipping the tests that need";
  process.stdout.write(`basecamp tests: ${verdict} ${describeMissing(machine, ALL)}\n`);
}
