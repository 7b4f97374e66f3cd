import { beforeAll, describe, expect, it } from "vitest";
import { smallEvent } from "../helpers/small-event.js";
import { ORGANISER, refusal, serveScenario, type TestServer } from "./server.js";
import { ANN, BEN, PIA, ROUND_UPLOAD, csvUpload, eventServer, newModel, postForm, splitIds, spread, toPhase } from "./event-server.js";

/**
 * The spec's "Staking (event)" table, and the General table's 403 "e-mail not verified" and 409
 * "selection window closed", over a real server on 127.0.0.1.
 */
const TOM = "key-tom-00000004";
const UNA = "key-una-00000005";
const VIC = "key-vic-00000006";
const agents = [
  { name: "ann", key: ANN, scope: "event", strategy: "event_ridge" },
  { name: "ben", key: BEN, scope: "event", strategy: "event_ridge" },
  { name: "pia", key: PIA, scope: "practice", strategy: "event_ridge" },
  { name: "tom", key: TOM, scope: "tournament", strategy: "event_ridge" },
  { name: "una", key: UNA, scope: "event", email_confirmed: false, strategy: "event_ridge" },
  { name: "vic", key: VIC, scope: "event", event_staking: false, strategy: "event_ridge" },
];
const staking = { starting_stake_usdc: "10", min_stake_usdc: "1", max_slots: 2 };
const ALLOCATE = "/api/v1/event/staking/allocations";
const SELECT = "/api/v1/event/final/selection";

function stakingServer(event: Record<string, unknown> = {}): Promise<TestServer> {
  return serveScenario(smallEvent({ agents }, { staking, final_window: { rounds: 1, max_selections: 2 }, ...event }));
}

describe("Staking (event) table and the General table's last two conditions", () => {
  let s: TestServer;
  let model: string;
  beforeAll(async () => {
    s = await stakingServer();
    model = await newModel(s, ANN, "staked");
  });

  it("409 outside a round's window, and 422 for an amount sent as a JSON number (with its location)", async () => {
    expect(refusal(await s.post(ALLOCATE, { model, amount_usdc: "1" }, ANN))).toEqual({
      status: 409,
      code: "stake_window_closed",
      message: "No stake window is open (build): allocations are drafted while a round is open, for that round.",
    });
    const number = await s.post(ALLOCATE, { model, amount_usdc: 2.5 }, ANN);
    expect(number.status).toBe(422);
    expect(number.json.detail.loc).toEqual(["body", "amount_usdc"]);
    expect(number.json.detail.message).toContain("a JSON number is refused");
  });

  it("explains the event payout map on /api/v1/scoring", async () => {
    const scoring = (await s.get("/api/v1/scoring")).json;
    expect(scoring).toMatchObject({ stake_return_amplitude: 0.25, payout_factor_threshold_micro: 500_000_000 });
    expect(scoring.payout).toContain("A * tanh(payout_factor * round_score / A)");
  });

  it("takes a final selection in the build phase", async () => {
    const a = await s.post(SELECT, { models: [model] }, ANN);
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ applicable: true, rounds: ["round_3"], selection_open: true, selected: [{ model }] });
  });

  it("403 for non-participants, enrollments without the capability, and (General) an unconfirmed e-mail", async () => {
    await toPhase(s, "round_1");
    const ask = async (key: string) => refusal(await s.post(ALLOCATE, { model: "x", amount_usdc: "1" }, key));
    expect(await ask(TOM)).toEqual({ status: 403, code: "not_event_participant", message: "Event staking is only available to event participants." });
    expect(await ask(PIA)).toEqual({ status: 403, code: "no_staking_capability", message: "Your enrollment does not carry the event-staking capability." });
    expect(await ask(VIC)).toEqual({ status: 403, code: "no_staking_capability", message: "Your enrollment does not carry the event-staking capability." });
    expect(await ask(UNA)).toEqual({ status: 403, code: "email_not_verified", message: "E-mail not verified" });
    const whoami = await s.get("/api/v1/whoami", UNA);
    expect(whoami.json).toMatchObject({ authenticated: true, email_confirmed: false });
    expect((await s.get("/api/v1/status", UNA)).json.event_staking).toMatchObject({ money_event: true, can_stake: false });
  });

  it("422 for a model with no submission in the window; the minimum stake; then a draft", async () => {
    expect(refusal(await s.post(ALLOCATE, { model, amount_usdc: "1" }, ANN))).toMatchObject({ status: 422, code: "no_submission_for_window" });
    const live = await splitIds(s, ANN, "live");
    expect((await postForm(s, ROUND_UPLOAD, ANN, csvUpload(model, live, spread(live, 7)))).status).toBe(202);
    const models = await s.get("/api/v1/models", ANN);
    const id = models.json.models.find((m: { name: string }) => m.name === model).id;
    const min = await s.post(ALLOCATE, { model, amount_usdc: "0.5" }, ANN);
    expect(refusal(min)).toEqual({ status: 400, code: "below_min_stake", message: "The minimum stake on a model is 1 USDC." });
    const draft = await s.post(ALLOCATE, { model, amount_usdc: "2.5", window: "round_1" }, ANN);
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ model_id: id, window: "round_1", amount_micro: 2_500_000, status: "draft", spendable_micro: 7_500_000 });
  });

  it("503 while the deposit balance cannot be read", async () => {
    const fault = (on: boolean) => s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "balance_unavailable", round: 1, on } });
    expect((await fault(true)).status).toBe(200);
    expect(refusal(await s.post(ALLOCATE, { model, amount_usdc: "3" }, ANN))).toEqual({
      status: 503,
      code: "balance_unavailable",
      message: "Could not read your event deposit balance. Try again.",
    });
    expect((await s.get("/api/v1/event/staking", ANN)).json).toMatchObject({ balance_unavailable: true, net_micro: null });
    await fault(false);
  });

  it("409 a lock cannot be overwritten by a draft; the stake settles as the next round opens", async () => {
    await toPhase(s, "round_1_boundary");
    const locked = refusal(await s.post(ALLOCATE, { model, amount_usdc: "1", window: "round_1" }, ANN));
    expect(locked.status).toBe(409);
    expect(locked.code).toBe("allocation_locked");
    expect(locked.message).toMatch(new RegExp(`^allocation \\(${model}, round_1\\) is locked \\(locked_at=2026-09-23T13:20:00\\.000Z\\); drafts cannot overwrite a lock$`));
    // Outside a draft window the balance is readable, and so is what the next window's drafts can take.
    const between = (await s.get("/api/v1/event/staking", ANN)).json;
    expect(between).toMatchObject({ draft_window: null, balance_unavailable: false, net_micro: 10_000_000, locked_micro: 2_500_000, spendable_micro: 7_500_000 });
    expect((await s.get("/api/v1/status", ANN)).json.event_staking).toMatchObject({ draft_window: null, spendable_micro: 7_500_000 });
    await toPhase(s, "round_2");
    const view = (await s.get("/api/v1/event/staking", ANN)).json;
    expect(view.windows[0]).toMatchObject({ window: "round_1", payout_factor: 1, allocations: [{ status: "locked" }], settlements: [{ amount_micro: 2_500_000 }] });
    const payout = view.windows[0].settlements[0].payout_micro;
    expect(view.net_micro).toBe(10_000_000 + payout);
    const balances = await s.get("/sim/v1/stakes", ORGANISER);
    expect(balances.json.rows.find((r: { agent: string }) => r.agent === "ann")).toMatchObject({ net_micro: 10_000_000 + payout });
  });

  it("(General) 409 once the final selection window has closed", async () => {
    await toPhase(s, "round_3");
    expect(refusal(await s.post(SELECT, { models: [] }, ANN))).toEqual({
      status: 409,
      code: "selection_window_closed",
      message: "The final selection window closed at 2026-09-23T13:34:00.000Z; the selection made before then stands.",
    });
    expect((await s.get(SELECT, ANN)).json).toMatchObject({ selection_open: false, selected: [{ model }] });
  });

  it("409 once the event's deadline has passed", async () => {
    await toPhase(s, "round_3_boundary");
    expect(refusal(await s.post(ALLOCATE, { model, amount_usdc: "1" }, ANN))).toEqual({
      status: 409,
      code: "event_deadline_passed",
      message: "This event's deadline has passed, so new allocations are closed; locked work still settles and claims.",
    });
  });
});

describe("Staking (event): an event not armed, and one without staking", () => {
  it("409 before the staking contract instance is armed", async () => {
    const s = await stakingServer({ staking: { ...staking, armed_at: "2026-09-23T14:00:00Z" } });
    await toPhase(s, "round_1");
    const model = await newModel(s, ANN, "early");
    expect(refusal(await s.post(ALLOCATE, { model, amount_usdc: "1" }, ANN))).toEqual({
      status: 409,
      code: "staking_not_armed",
      message: "This event's staking contract instance is not armed yet.",
    });
  });

  it("403 This event has no staking configured; no final window either", async () => {
    const s = await eventServer();
    await toPhase(s, "round_1");
    expect(refusal(await s.post(ALLOCATE, { model: "x", amount_usdc: "1" }, ANN))).toEqual({
      status: 403,
      code: "no_staking_configured",
      message: "This event has no staking configured",
    });
    expect((await s.get("/api/v1/event/staking", ANN)).json).toMatchObject({ money_event: false });
    expect((await s.get(SELECT, ANN)).json).toMatchObject({ applicable: false });
    expect(refusal(await s.post(SELECT, { models: [] }, ANN))).toMatchObject({ status: 409, code: "no_final_window" });
  });
});
