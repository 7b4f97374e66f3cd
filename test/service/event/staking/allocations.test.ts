import { describe, expect, it } from "vitest";
import { setStakeAllocation, withdrawStakeAllocation } from "../../../../src/service/event/staking/allocations.js";
import { eventPayout } from "../../../../src/scoring/payout.js";
import { eventStaking } from "../../../../src/service/event/staking/view.js";
import { stakeBalances } from "../../../../src/service/overview/stake-balances.js";
import { getRun } from "../../../../src/service/event/runs.js";
import { uploadInline } from "../../../../src/service/event/uploads.js";
import { toggleFault } from "../../../../src/service/kernel/faults.js";
import { getStarted } from "../../../../src/service/overview/status.js";
import { eventLines } from "../../../../src/store/event-log.js";
import { eventHarness } from "../../../helpers/event-harness.js";
import { refusalParts } from "../../../helpers/refusal.js";

const staking = { starting_stake_usdc: "10", min_stake_usdc: "1", max_slots: 2, stake_return_amplitude: 0.25, payout_factor_threshold_usdc: "4" };

const agents = [
  { name: "ann", key: "key-ann-00000001", scope: "event", strategy: "event_ridge" },
  { name: "ben", key: "key-ben-00000002", scope: "event", strategy: "event_ridge" },
  { name: "pia", key: "key-pia-00000003", scope: "practice", strategy: "event_ridge" },
  { name: "tom", key: "key-tom-00000004", scope: "tournament", strategy: "event_ridge" },
  { name: "una", key: "key-una-00000005", scope: "event", email_confirmed: false, strategy: "event_ridge" },
  { name: "vic", key: "key-vic-00000006", scope: "event", event_staking: false, strategy: "event_ridge" },
  { name: "lou", key: "key-lou-00000007", scope: "llm", strategy: "event_ridge" },
];

function stakingEvent(extra: Record<string, unknown> = {}) {
  const h = eventHarness({ staking: { ...staking, ...extra } }, 0, { agents });
  const rounds = h.world.schedule.rounds;
  const inRound = (i: number, minute = 1) => h.at(rounds[i - 1].open_at + minute * 60_000);
  /** A model of `p` with a round-lane upload in round `i`. */
  const entered = (p: typeof h.ann, label: string, i: number, values?: number[]) => {
    const m = h.model(p, label);
    const ids = h.live(i);
    const run = uploadInline(h.ctx, p, "round", h.input(m, ids, values ?? ids.map((_, k) => ((k * 7919) % ids.length + 0.5) / ids.length)));
    return { model: m, run };
  };
  return { ...h, rounds, inRound, entered };
}


describe("event staking: who may stake", () => {
  it("refuses non-participants, keys without the capability, unconfirmed e-mail and events without staking, in that order", async () => {
    const h = stakingEvent();
    await h.inRound(1);
    const ask = (key: string) => refusalParts(() => setStakeAllocation(h.ctx, h.who(key), { model: "x", amount_usdc: "1" }));
    expect(ask("key-tom-00000004")).toEqual({ status: 403, code: "not_event_participant", message: "Event staking is only available to event participants." });
    expect(ask("key-pia-00000003")).toEqual({ status: 403, code: "no_staking_capability", message: "Your enrollment does not carry the event-staking capability." });
    expect(ask("key-vic-00000006")).toEqual({ status: 403, code: "no_staking_capability", message: "Your enrollment does not carry the event-staking capability." });
    expect(ask("key-una-00000005")).toEqual({ status: 403, code: "email_not_verified", message: "E-mail not verified" });
    expect(ask("key-lou-00000007").code).toBe("llm_scope_only");

    const bare = eventHarness({}, 0, { agents });
    await bare.at(bare.world.schedule.rounds[0].open_at + 60_000);
    expect(refusalParts(() => setStakeAllocation(bare.ctx, bare.ann, { model: "x", amount_usdc: "1" }))).toEqual({
      status: 403,
      code: "no_staking_configured",
      message: "This event has no staking configured",
    });
    expect(eventStaking(bare.ctx, bare.ann)).toMatchObject({ money_event: false, windows: [] });
    expect(getStarted(bare.ctx, bare.ann).event_staking).toMatchObject({ money_event: false, can_stake: false });
  });

  it("refuses drafts before the contract is armed, and after the deadline", async () => {
    const h = stakingEvent({ armed_at: "2026-09-23T13:25:00Z" });
    await h.inRound(1);
    const { model } = h.entered(h.ann, "a", 1);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1" }))).toEqual({
      status: 409,
      code: "staking_not_armed",
      message: "This event's staking contract instance is not armed yet.",
    });
    await h.at(h.rounds[2].close_at);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1" }))).toMatchObject({
      status: 409,
      code: "event_deadline_passed",
      message: "This event's deadline has passed, so new allocations are closed; locked work still settles and claims.",
    });
  });
});

describe("event staking: drafting", () => {
  it("drafts only while a round is open, for that round, after submitting in it", async () => {
    const h = stakingEvent();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const m = h.model(h.ann, "a");
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: m, amount_usdc: "1" }))).toMatchObject({
      status: 409,
      code: "stake_window_closed",
      message: "No stake window is open (build): allocations are drafted while a round is open, for that round.",
    });
    await h.inRound(1);
    const mid = await h.model(h.ann, "b");
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: mid, amount_usdc: "1" }))).toMatchObject({
      status: 422,
      code: "no_submission_for_window",
    });
    const { model } = h.entered(h.ann, "c", 1);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1", window: "round_2" }))).toEqual({
      status: 409,
      code: "window_mismatch",
      message: "Allocations are being drafted for round_1, not round_2.",
    });
    const draft = setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "2.5", window: "round_1" });
    expect(draft).toMatchObject({ model, window: "round_1", amount_micro: 2_500_000, status: "draft", locked_at: null, spendable_micro: 7_500_000 });
    expect(setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "3" })).toMatchObject({ amount_micro: 3_000_000, spendable_micro: 7_000_000 });
    await h.at(h.rounds[0].close_at + 1000);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1" })).code).toBe("stake_window_closed");
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1", window: "round_1" }))).toMatchObject({
      status: 409,
      code: "allocation_locked",
      message: `allocation (${model}, round_1) is locked (locked_at=2026-09-23T13:20:00.000Z); drafts cannot overwrite a lock`,
    });
  });

  it("applies the minimum, the slot limit, the balance and the amount's format", async () => {
    const h = stakingEvent();
    await h.inRound(1);
    const [a, b, c] = ["a", "b", "c"].map((label, k) => h.entered(h.ann, label, 1, h.live(1).map((_, i, ids) => ((i * (k + 3)) % ids.length + 0.5) / ids.length)).model);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: a, amount_usdc: "0.5" }))).toEqual({
      status: 400,
      code: "below_min_stake",
      message: "The minimum stake on a model is 1 USDC.",
    });
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: a, amount_usdc: "1.0000001" }))).toMatchObject({ status: 422, code: "validation_error" });
    const long = refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: a, amount_usdc: "9".repeat(100_000) }));
    expect(long).toMatchObject({ status: 422, code: "validation_error" });
    expect(long.message).toBe(`amount_usdc: expected a decimal string with at most 6 decimals, e.g. "2.5" (got "${"9".repeat(40)}… (100000 characters)")`);
    setStakeAllocation(h.ctx, h.ann, { model: a, amount_usdc: "6" });
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: b, amount_usdc: "4.000001" }))).toEqual({
      status: 409,
      code: "insufficient_balance",
      message: "Insufficient balance: 4000001 micro asked, 4000000 micro spendable (balance minus locks not yet settled and your other drafts).",
    });
    setStakeAllocation(h.ctx, h.ann, { model: b, amount_usdc: "4" });
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model: c, amount_usdc: "1" }))).toEqual({
      status: 409,
      code: "slot_limit",
      message: "At most 2 models can be staked in round_1.",
    });
    expect(withdrawStakeAllocation(h.ctx, h.ann, { model: b })).toEqual({ model_id: expect.any(String), window: "round_1", withdrawn_micro: 4_000_000 });
    expect(refusalParts(() => withdrawStakeAllocation(h.ctx, h.ann, { model: b }))).toMatchObject({ status: 404, code: "allocation_not_found" });
    setStakeAllocation(h.ctx, h.ann, { model: c, amount_usdc: "1" });
  });

  it("answers 503 while the deposit balance cannot be read, and shows null balances, never 0", async () => {
    const h = stakingEvent();
    await h.inRound(1);
    const { model } = h.entered(h.ann, "a", 1);
    toggleFault(h.ctx, "balance_unavailable", 1, true);
    expect(refusalParts(() => setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1" }))).toEqual({
      status: 503,
      code: "balance_unavailable",
      message: "Could not read your event deposit balance. Try again.",
    });
    expect(eventStaking(h.ctx, h.ann)).toMatchObject({ balance_unavailable: true, net_micro: null, spendable_micro: null });
    toggleFault(h.ctx, "balance_unavailable", 1, false);
    expect(setStakeAllocation(h.ctx, h.ann, { model, amount_usdc: "1" }).status).toBe("draft");
  });
});

describe("event staking: lock and settlement", () => {
  it("locks drafts as the round closes, freezes the payout factor, and settles as the next round opens", async () => {
    const h = stakingEvent();
    await h.inRound(1);
    const a = h.entered(h.ann, "a", 1);
    const b = h.entered(h.ben, "b", 1, h.half(h.live(1)));
    setStakeAllocation(h.ctx, h.ann, { model: a.model, amount_usdc: "3" });
    setStakeAllocation(h.ctx, h.ben, { model: b.model, amount_usdc: "5" });
    await h.at(h.rounds[0].close_at);
    const locked = eventStaking(h.ctx, h.ann);
    expect(locked.windows[0]).toMatchObject({ window: "round_1", payout_factor: 0.5, allocations: [{ status: "locked", amount_micro: 3_000_000 }] });
    expect(locked).toMatchObject({ locked_micro: 3_000_000, net_micro: 10_000_000, draft_window: null, stake_window_open: false });
    expect(refusalParts(() => withdrawStakeAllocation(h.ctx, h.ann, { model: a.model, window: "round_1" })).code).toBe("allocation_locked");

    await h.at(h.rounds[1].open_at);
    const score = getRun(h.ctx, h.ann, a.run.upload_id).scores?.score as number;
    expect(typeof score).toBe("number");
    const payout = eventPayout(3_000_000, score, 0.5, 0.25);
    const settled = eventStaking(h.ctx, h.ann);
    expect(settled.windows[0].settlements).toEqual([
      { model_id: expect.any(String), model: a.model, amount_micro: 3_000_000, score, payout_micro: payout, settled_at: "2026-09-23T13:22:00.000Z", note: null },
    ]);
    expect(settled).toMatchObject({ settled_micro: payout, net_micro: 10_000_000 + payout, locked_micro: 0, draft_window: "round_2" });
    expect(Math.abs(payout)).toBeLessThanOrEqual(0.25 * 3_000_000);
    expect([...eventLines(h.ctx.db)].map((l) => (JSON.parse(l) as { type: string }).type).filter((t) => t.startsWith("stake."))).toEqual([
      "stake.drafted",
      "stake.drafted",
      "stake.locked",
      "stake.settled",
    ]);
    expect(stakeBalances(h.ctx)?.rows.map((r) => r.agent).sort()).toEqual(["ann", "ben", "una"]);
  });

  it("returns a stake whose model's run failed (payout 0), and settles a window passed over in one clock jump", async () => {
    const h = stakingEvent();
    await h.inRound(1);
    const m = h.model(h.ann, "stale");
    // Validation ids on the round lane: accepted with 202, failed once scored (no id overlaps).
    const run = uploadInline(h.ctx, h.ann, "round", h.input(m, h.validation, h.half(h.validation)));
    setStakeAllocation(h.ctx, h.ann, { model: m, amount_usdc: "2" });
    await h.at(h.rounds[2].open_at + 60_000);
    expect(getRun(h.ctx, h.ann, run.upload_id).status).toBe("failed");
    const view = eventStaking(h.ctx, h.ann);
    expect(view.windows[0].settlements).toMatchObject([{ score: null, payout_micro: 0, note: "no scored run in round_1: the stake is returned" }]);
    expect(view).toMatchObject({ net_micro: 10_000_000, settled_micro: 0, locked_micro: 0 });
  });
});
