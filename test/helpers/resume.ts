import fc from "fast-check";
import { join } from "node:path";
import { expect } from "vitest";
import type { World } from "../../src/service/kernel/deployment.js";
import { runScenario } from "../../sim/engine.js";
import type { Scenario } from "../../sim/scenario.js";

/**
 * The resume property: a run stopped after any step (6 random ones) and resumed from its store in
 * `dir` ends on the unbroken run's digest.
 */
export async function expectResumeGivesSameDigest(scenario: Scenario, world: World, dir: string): Promise<void> {
  const whole = await runScenario(scenario, { world });
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: whole.steps - 1 }), async (stopAfter) => {
      const db = join(dir, `resume-${run++}.db`);
      const first = await runScenario(scenario, { world, db, stopAfter });
      expect(first.finished).toBe(false);
      expect(first.stepsDone).toBe(stopAfter);
      const resumed = await runScenario(scenario, { world, db, resume: true });
      expect(resumed.finished).toBe(true);
      expect(resumed.digest).toBe(whole.digest);
    }),
    { numRuns: 6 },
  );
}
