import { clockView, holdClock } from "../cadence/clock-control.js";
import { faults, toggleFault, type FaultName } from "../kernel/faults.js";
import { changeScoring } from "../kernel/organiser.js";
import { organiserBoards } from "../overview/organiser-boards.js";
import { stakeBalances } from "../overview/stake-balances.js";
import type { Call } from "./call.js";

/** The organiser's controls (moving the clock is the service's own: it walks the clock's appointments). */
export const organiserHandlers = {
  /** The served clock, its mode and the cadence now. */
  clock: (c: Call) => clockView(c.ctx, c.clockControl()),
  /** Holds a realtime clock still (`hold`), or lets it run on. */
  holdClock: (c: Call, hold: boolean) => holdClock(c.ctx, c.clockControl(), hold),
  /** The live scoring settings. */
  changeScoring: (c: Call, change: Parameters<typeof changeScoring>[1]) => changeScoring(c.ctx, change),
  /** Every staking agent's money (event deposits, or tournament stake earnings), ranked; null when nobody stakes. */
  stakeBalances: (c: Call) => stakeBalances(c.ctx),
  /** The standings, the newest rounds' boards and the practice board, as participants read them. */
  boards: (c: Call) => organiserBoards(c.ctx),
  /** The faults now in force. */
  currentFaults: (c: Call) => faults(c.ctx),
  /** Withholds (or restores) a round's live `v1_designated` column, and the other faults. */
  toggleFault: (c: Call, fault: FaultName, round: number | undefined, on: boolean) => toggleFault(c.ctx, fault, round, on),
};
