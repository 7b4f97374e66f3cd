import { describe, expect, it } from "vitest";
import { finalBoard } from "../../../src/service/event/final-board.js";
import { getFinalSelection, setFinalSelection } from "../../../src/service/event/final-selection.js";
import { uploadInline } from "../../../src/service/event/uploads.js";
import { getStarted } from "../../../src/service/overview/status.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { refusalParts } from "../../helpers/refusal.js";


describe("the final selection", () => {
  it("does not apply on a sealed-round event without a final window", async () => {
    const h = eventHarness();
    await h.at(h.world.schedule.phases[0].start + 60_000);
    expect(getFinalSelection(h.ctx, h.ann)).toEqual({ applicable: false, reason: "This event has no final window: its sealed rounds are its boards." });
    expect(refusalParts(() => setFinalSelection(h.ctx, h.ann, []))).toEqual({
      status: 409,
      code: "no_final_window",
      message: "This event has no final window: its sealed rounds are its boards.",
    });
    expect(getStarted(h.ctx, h.ann).max_selections).toBeNull();
  });

  it("takes a selection until the first final round opens, then refuses with 409 and keeps the selection made", async () => {
    const h = eventHarness({ final_window: { rounds: 1, max_selections: 2 } });
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const [a, b, c] = ["a", "b", "c"].map((label) => h.model(h.ann, label));
    expect(refusalParts(() => setFinalSelection(h.ctx, h.ann, [a, b, c]))).toEqual({
      status: 400,
      code: "too_many_selections",
      message: "At most 2 models can be selected (3 given).",
    });
    expect(refusalParts(() => setFinalSelection(h.ctx, h.ann, [a, a]))).toMatchObject({ status: 400, code: "duplicate_selection" });
    expect(refusalParts(() => setFinalSelection(h.ctx, h.ann, ["nope"]))).toMatchObject({ status: 404, code: "model_name_unknown" });
    expect(refusalParts(() => setFinalSelection(h.ctx, h.who("key-pia-00000003"), [])).code).toBe("insufficient_scope");
    expect(setFinalSelection(h.ctx, h.ann, [b, a])).toMatchObject({
      applicable: true,
      rounds: ["round_3"],
      max_selections: 2,
      selection_open: true,
      selected: [{ model: b }, { model: a }],
    });
    const closes = h.world.schedule.rounds[2].open_at;
    await h.at(closes);
    expect(refusalParts(() => setFinalSelection(h.ctx, h.ann, [c]))).toEqual({
      status: 409,
      code: "selection_window_closed",
      message: "The final selection window closed at 2026-09-23T13:34:00.000Z; the selection made before then stands.",
    });
    expect(getFinalSelection(h.ctx, h.ann)).toMatchObject({ selection_open: false, selected: [{ model: b }, { model: a }] });
  });

  it("ranks only the selected models over the final rounds, sealed until the event is done", async () => {
    const h = eventHarness({ final_window: { rounds: 1, max_selections: 1 } });
    await h.at(h.world.schedule.phases[0].start + 60_000);
    const picked = h.model(h.ann, "picked");
    const other = h.model(h.ann, "other");
    const bens = h.model(h.ben, "unpicked");
    setFinalSelection(h.ctx, h.ann, [picked]);
    const round3 = h.world.schedule.rounds[2];
    await h.at(round3.open_at + 60_000);
    const ids = h.live(3);
    uploadInline(h.ctx, h.ann, "round", h.input(picked, ids, h.half(ids)));
    uploadInline(h.ctx, h.ann, "round", h.input(other, ids, ids.map((_, i) => 1 - (i + 0.5) / ids.length)));
    uploadInline(h.ctx, h.ben, "round", h.input(bens, ids, ids.map((_, i) => ((i * 7) % ids.length + 0.5) / ids.length)));
    await h.at(round3.close_at + 1000);
    expect(finalBoard(h.ctx)).toMatchObject({ window: "final", rounds: ["round_3"], sealed: true, rows: [] });
    const done = h.world.schedule.phases[h.world.schedule.phases.length - 1].start;
    await h.at(done);
    const board = finalBoard(h.ctx);
    expect(board.sealed).toBe(false);
    expect(board.rows.map((r) => r.model)).toEqual([picked]);
    expect(board.rows[0].rounds_scored).toBe(1);
  });
});
