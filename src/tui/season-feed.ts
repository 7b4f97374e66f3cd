/** The updates of a replay, kept until the view subscribes (the replay may start before the view's first render). */
import type { SeasonUpdate } from "./season-state.js";

export class SeasonFeed {
  private readonly seen: SeasonUpdate[] = [];
  private listener: ((u: SeasonUpdate) => void) | null = null;

  push(u: SeasonUpdate): void {
    this.seen.push(u);
    this.listener?.(u);
  }

  /** Replays the updates so far to `listener`, then forwards new ones until the returned function is called. */
  subscribe(listener: (u: SeasonUpdate) => void): () => void {
    this.seen.forEach(listener);
    this.listener = listener;
    return () => {
      this.listener = null;
    };
  }
}
