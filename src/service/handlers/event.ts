import { uploadBatch, type BatchItem } from "../event/batch.js";
import { eventRoundBoard, practiceBoard } from "../event/event-boards.js";
import { finalBoard } from "../event/final-board.js";
import { getFinalSelection, setFinalSelection } from "../event/final-selection.js";
import { deleteRun, getRun } from "../event/runs.js";
import type { Lane } from "../../store/uploads.js";
import { upload, type UploadInput } from "../event/uploads.js";
import { setStakeAllocation, withdrawStakeAllocation, type AllocationInput } from "../event/staking/allocations.js";
import { eventStaking } from "../event/staking/view.js";
import { offPath, type Call } from "./call.js";

/** Events: the two lanes, their runs and boards, event staking and the final selection. */
export const eventHandlers = {
  /** Event round lane: cadence-fenced, draws on the upload pool. Accepted with 202. */
  uploadRound: offPath((c: Call, input: UploadInput) => upload(c.ctx, c.uploadPath, c.principal, "round", input)),
  /** Practice board lane: never fenced, free of the pool. Accepted with 202. */
  uploadPractice: offPath((c: Call, input: UploadInput) => upload(c.ctx, c.uploadPath, c.principal, "practice", input)),
  uploadBatch: offPath((c: Call, lane: Lane, items: BatchItem[]) => uploadBatch(c.ctx, c.uploadPath, c.principal, lane, items)),
  getRun: (c: Call, uploadId: string) => getRun(c.ctx, c.principal, uploadId),
  deleteRun: (c: Call, uploadId: string) => deleteRun(c.ctx, c.principal, uploadId),
  eventRoundBoard: (c: Call, window: string) => eventRoundBoard(c.ctx, window),
  practiceBoard: (c: Call) => practiceBoard(c.ctx),
  /** The caller's terms, draft window, deposit and per-round allocations. */
  eventStaking: (c: Call) => eventStaking(c.ctx, c.principal),
  /** Drafts (or redrafts) a stake on a model for the open round; locks as the round closes. */
  setStakeAllocation: (c: Call, input: AllocationInput) => setStakeAllocation(c.ctx, c.principal, input),
  /** Withdraws an unlocked draft. */
  withdrawStakeAllocation: (c: Call, input: { model: string; window?: string }) => withdrawStakeAllocation(c.ctx, c.principal, input),
  getFinalSelection: (c: Call) => getFinalSelection(c.ctx, c.principal),
  setFinalSelection: (c: Call, models: string[]) => setFinalSelection(c.ctx, c.principal, models),
  finalBoard: (c: Call) => finalBoard(c.ctx),
};
