import { describe, expect, it } from "vitest";
import { scoreSubmissions } from "../../../../src/scoring/exped.js";
import { advanceRounds } from "../../../../src/service/cadence/cadence-steps.js";
import { roundEntries } from "../../../../src/store/submissions.js";
import { designatedBenchmark, entrySubmissions, roundTruth } from "../../../../src/service/tournament/settlement/round-truth.js";
import { takeScoredAhead } from "../../../../src/service/tournament/settlement/scores-ahead.js";
import { logDigest } from "../../../../src/store/event-log.js";
import { harness } from "../../../helpers/service-harness.js";
import { smallScenario } from "../../../helpers/small-scenario.js";

const ALICE = "key-alice-0001";
/** 50 entries × 2,000 instruments: the 100k rows from which settlement's scoring is worth a worker. */
const MODELS = 50;
const UNIVERSE = 2_000;

/** Round 1 with MODELS entries of alice's, its window just closed (so its scoring has started ahead). */
async function closedRoundOne() {
  const scenario = smallScenario();
  const h = harness({ ...scenario, dataset: { ...scenario.dataset, universe_size: UNIVERSE } });
  h.clock.set(h.round(1).open_at);
  const { exped, instrument_ids } = await h.service.instruments(ALICE);
  for (let m = 0; m < MODELS; m++) {
    await h.service.createModel(ALICE, { name: `m${m}` });
    const predictions = instrument_ids.map((instrument_id, i) => ({ instrument_id, prediction: ((i * (m + 3)) % 101) / 100 }));
    await h.service.submit(ALICE, { model_id: `m${m}`, exped, predictions });
  }
  h.clock.set(h.round(1).close_at);
  await advanceRounds(h.ctx);
  return { ...h, exped };
}

describe("scoring ahead of settlement", () => {
  it("scores a closed round's entries on a worker exactly as settlement would, for these entries only", async () => {
    const h = await closedRoundOne();
    const benchmark = designatedBenchmark(h.world, 1)!;
    const entries = roundEntries(h.ctx.db, h.exped);
    const expected = await scoreSubmissions(roundTruth(h.world, 1, benchmark), entrySubmissions(h.ctx.db, h.exped, entries), { workers: 0 });
    const ahead = takeScoredAhead(h.ctx, h.exped)!;
    expect(await ahead.termsFor(benchmark, entries)).toStrictEqual(expected);
    const changed = entries.map((e, i) => (i === 7 ? { ...e, predictions: Buffer.from(e.predictions).fill(1, 0, 8) } : e));
    expect(await ahead.termsFor(benchmark, changed)).toBeNull();
    expect(await ahead.termsFor(Float64Array.from(benchmark), entries)).toBeNull();
    expect(takeScoredAhead(h.ctx, h.exped)).toBeNull();
  });

  it("settles to the same event log as a settlement that scores then", async () => {
    const digests: string[] = [];
    for (const dropAhead of [false, true]) {
      const h = await closedRoundOne();
      if (dropAhead) expect(takeScoredAhead(h.ctx, h.exped)).not.toBeNull();
      h.clock.set(h.round(1).resolves_at);
      await advanceRounds(h.ctx);
      expect(h.ctx.db.prepare("SELECT COUNT(*) AS n FROM scores WHERE exped = ?").get(h.exped)).toEqual({ n: MODELS });
      digests.push(logDigest(h.ctx.db));
    }
    expect(digests[1]).toBe(digests[0]);
  });
});
