import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openBasecamp } from "../src/app.js";
import { SimClock } from "../src/domain/clock.js";
import { buildWorld } from "../src/service/kernel/deployment.js";
import { deploymentOf } from "../sim/deployment.js";
import { smallScenario } from "./helpers/small-scenario.js";

const world = buildWorld(deploymentOf(smallScenario()));
const otherWorld = buildWorld(deploymentOf(smallScenario({ seed: 8 })));
const seasonClock = () => new SimClock(world.schedule.phases[0].start);
const ALICE = "key-alice-0001";

describe("openBasecamp, the one composition root", () => {
  it("refuses a store through `check` before it writes anything to it", () => {
    const file = join(mkdtempSync(join(tmpdir(), "basecamp-app-")), "store.db");
    expect(() =>
      openBasecamp(world, {
        db: file,
        clock: seasonClock,
        check: () => {
          throw new Error("not this store");
        },
      }),
    ).toThrow("not this store");
    // Nothing of `world` was kept: the same file takes another deployment.
    const other = openBasecamp(otherWorld, { db: file, clock: seasonClock });
    expect(other.events()).toBe(1);
    other.close();
    expect(() => openBasecamp(world, { db: file, clock: seasonClock })).toThrow(/another scenario or seed/);
  });

  it("tells `check` and `clock` where a resumed store stands", () => {
    const file = join(mkdtempSync(join(tmpdir(), "basecamp-app-")), "store.db");
    const first = openBasecamp(world, { db: file, clock: seasonClock });
    first.close();
    const seen: unknown[] = [];
    const again = openBasecamp(world, {
      db: file,
      clock: (store) => {
        seen.push(store);
        return new SimClock(store.resumeAt);
      },
    });
    const start = world.schedule.phases[0].start;
    expect(seen).toEqual([{ seasonStart: start, resumeAt: start, stepsDone: 0, events: 1 }]);
    again.close();
  });

  it("commits a replay step with its count, or nothing of it", async () => {
    const app = openBasecamp(world, { clock: seasonClock });
    await expect(
      app.inStep(0, async () => {
        await app.service.createModel(ALICE, { name: "kept-not" });
        throw new Error("the step failed");
      }),
    ).rejects.toThrow("the step failed");
    expect([app.stepsDone(), (await app.service.getModels(ALICE)).models]).toEqual([0, []]);
    await app.inStep(0, async () => {
      await app.service.createModel(ALICE, { name: "kept" });
    });
    expect([app.stepsDone(), (await app.service.getModels(ALICE)).models.map((m) => m.name)]).toEqual([1, ["kept"]]);
    app.close();
  });

  it("gives each service its own state, in its context", async () => {
    const a = openBasecamp(world, { clock: seasonClock });
    const b = openBasecamp(world, { clock: seasonClock });
    await a.service.getModels(ALICE);
    expect([a.ctx.state.knownDigests.has(ALICE), b.ctx.state.knownDigests.has(ALICE)]).toEqual([true, false]);
    a.close();
    b.close();
  });
});
