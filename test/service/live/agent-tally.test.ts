import { expect, it } from "vitest";
import { AgentTallies, UPLOADS_REMEMBERED } from "../../../src/service/live/agent-tally.js";
import type { LoggedEvent } from "../../../src/store/event-log.js";

let seq = 0;
const ev = (type: string, payload: unknown): LoggedEvent => ({ seq: ++seq, t: 0, type, payload });

it("folds uploads, runs and compute spend per agent, following ids to their owners", () => {
  const t = new AgentTallies();
  expect(t.fold(ev("round.opened", { exped: "round_1" }))).toBeNull();
  expect(t.fold(ev("upload.accepted", { upload_id: "u1", lane: "round", agent: "ann", uploads_remaining: 11 }))).toBe("ann");
  t.fold(ev("upload.accepted", { upload_id: "u2", lane: "practice", agent: "ann", uploads_remaining: 11 }));
  t.fold(ev("upload.accepted", { upload_id: "u3", lane: "round", agent: "ben", uploads_remaining: 3 }));
  expect(t.fold(ev("run.finalised", { upload_id: "u1", score: 0.1 }))).toBe("ann");
  t.fold(ev("run.failed", { upload_id: "u3", code: "no_overlap", message: "…" }));
  t.fold(ev("job.queued", { job_id: "j1", agent: "ben" }));
  expect(t.fold(ev("job.completed", { job_id: "j1", cost_cents: 7 }))).toBe("ben");
  t.fold(ev("machine.started", { machine_id: "m1", agent: "ben" }));
  t.fold(ev("machine.stopped", { machine_id: "m1", cost_cents: 5 }));
  expect(t.fold(ev("run.finalised", { upload_id: "unknown" }))).toBeNull();
  expect(t.all()).toEqual([
    { agent: "ann", round_uploads: 1, practice_uploads: 1, uploads_remaining: 11, runs_finalised: 1, runs_failed: 0, compute_jobs: 0, machine_sessions: 0, compute_cents: 0 },
    { agent: "ben", round_uploads: 1, practice_uploads: 0, uploads_remaining: 3, runs_finalised: 0, runs_failed: 1, compute_jobs: 1, machine_sessions: 1, compute_cents: 12 },
  ]);
  expect(t.uploadsOf("ann")).toEqual(["u1", "u2"]);
  expect(t.uploadsOf("cat")).toEqual([]);
});

it("remembers only an agent's newest uploads", () => {
  const t = new AgentTallies();
  for (let i = 0; i < UPLOADS_REMEMBERED + 5; i++) t.fold(ev("upload.accepted", { upload_id: `u${i}`, lane: "practice", agent: "ann" }));
  const kept = t.uploadsOf("ann");
  expect(kept).toHaveLength(UPLOADS_REMEMBERED);
  expect(kept[0]).toBe("u5");
  expect(kept.at(-1)).toBe(`u${UPLOADS_REMEMBERED + 4}`);
});
