import { benchmarkBoard } from "../rounds/benchmarks.js";
import { currentStandings, roundBoard } from "../overview/boards.js";
import { downloadBenchmark, downloadDataset } from "../rounds/data.js";
import { currentRound, instruments, schedule } from "../rounds/rounds.js";
import { submitV2, type SubmitInput } from "../tournament/tournament.js";
import type { Call } from "./call.js";

/** The tournament: its calendar, data, boards and submit v2. */
export const roundHandlers = {
  currentRound: (c: Call) => currentRound(c.ctx),
  schedule: (c: Call) => schedule(c.ctx),
  instruments: (c: Call) => instruments(c.ctx),
  downloadBenchmark: (c: Call, split: string) => downloadBenchmark(c.ctx, c.principal, split),
  downloadDataset: (c: Call, split: string) => downloadDataset(c.ctx, c.principal, split),
  /** The season's (or the event's cumulative) standings. */
  standings: (c: Call) => currentStandings(c.ctx),
  roundBoard: (c: Call, exped: string) => roundBoard(c.ctx, exped),
  benchmarks: (c: Call) => benchmarkBoard(c.ctx, c.principal),
  submit: (c: Call, input: SubmitInput) => submitV2(c.ctx, c.principal, input),
};
