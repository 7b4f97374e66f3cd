import { refuse } from "../../domain/errors.js";

/**
 * Bounded concurrent intake on the two multipart lanes: a face takes a slot before it reads an
 * upload's body and gives it back when the service has answered. Past the bound the lane is
 * saturated: 503 with `Retry-After: 5`.
 */
export class IntakeSlots {
  private busy = 0;

  constructor(private readonly capacity: number) {}

  /** A slot, or the saturation refusal; call the returned function exactly once to give it back. */
  take(): () => void {
    if (this.busy >= this.capacity) throw refuse("lane_saturated", {}, { headers: { "Retry-After": "5" } });
    this.busy++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.busy--;
      }
    };
  }

  get inUse(): number {
    return this.busy;
  }
}
