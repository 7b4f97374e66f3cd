import type { AdvanceRequest, AdvanceResult, ClockView } from "../service/cadence/clock-control.js";
import type { FaultName, Faults } from "../service/kernel/faults.js";
import type { ScoringSettingsRecord } from "../service/kernel/setup.js";
import { Transport, type TransportOptions } from "./transport.js";

export interface SimControlOptions extends TransportOptions {
  /** The scenario's organiser key (sent in `X-API-Key`). */
  organiserKey: string;
}

/** The organiser's controls of a `basecamp serve` simulator (`/sim/v1`): not part of the real service. */
export class SimControl {
  private readonly http: Transport;

  constructor(opts: SimControlOptions) {
    this.http = new Transport(opts.organiserKey, opts);
  }


  /** The simulated clock: now, mode (manual or realtime), speed and the cadence. */
  clock(): Promise<ClockView> {
    return this.http.operation("clock", []);
  }

  /** Moves the clock forward (by seconds, to the next phase, or until an ISO instant); lists the round transitions on the way. */
  advance(by: AdvanceRequest): Promise<AdvanceResult> {
    return this.http.operation("advanceClock", [by]);
  }

  /** Changes the live scoring settings; rounds settled from now on use them. */
  changeScoring(change: Partial<ScoringSettingsRecord>): Promise<ScoringSettingsRecord> {
    return this.http.operation("changeScoring", [change]);
  }

  /** Turns a fault on or off: a round fault for `round`; diagnostics_maintenance takes none. */
  toggleFault(fault: FaultName, round: number | undefined, on: boolean): Promise<Faults> {
    return this.http.operation("toggleFault", [fault, round, on]);
  }
}
