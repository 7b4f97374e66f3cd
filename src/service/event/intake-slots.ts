import { refuse } from "../../domain/errors.js";

/**
 * Bounded concurrent intake on one multipart lane: an authenticated caller takes a place before a
 * face reads its upload's body and gives it back when the service has answered (or the face has
 * dropped the body). The lane holds at most `capacity` places, and one agent at most `perAgent` of
 * them, so one agent cannot saturate the lane for the others. Past either bound: 503 with
 * `Retry-After: 5`.
 */
export class IntakeSlots {
  private busy = 0;
  private readonly held = new Map<string, number>();

  constructor(
    private readonly capacity: number,
    private readonly perAgent: number,
  ) {}

  /** A place for `agentId`, or the saturation refusal; call the returned function to give it back (later calls do nothing). */
  take(agentId: string): () => void {
    const mine = this.held.get(agentId) ?? 0;
    if (this.busy >= this.capacity || mine >= this.perAgent) {
      throw refuse("lane_saturated", {}, { headers: { "Retry-After": "5" } });
    }
    this.busy++;
    this.held.set(agentId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy--;
      const left = (this.held.get(agentId) as number) - 1;
      if (left === 0) this.held.delete(agentId);
      else this.held.set(agentId, left);
    };
  }
}
