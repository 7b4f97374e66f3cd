/**
 * The hold the live view's keys have on a replay: `afterStep` waits the pace (or yields, so keys
 * are read even flat out), then for as long as the replay is paused; `shouldStop` turns true once
 * the user quits, and the engine ends after the current step (a run with --db resumes from there).
 * Pausing holds the step loop only: the simulated clock and results do not depend on it.
 */
export interface ReplayControl {
  setPaused(paused: boolean): void;
  quit(): void;
  shouldStop(): boolean;
  afterStep(): Promise<void>;
}

export function replayControl(paceMs: number): ReplayControl {
  let paused = false;
  let stopping = false;
  let release: (() => void) | null = null;
  const wake = () => {
    release?.();
    release = null;
  };
  return {
    setPaused(p) {
      paused = p;
      if (!p) wake();
    },
    quit() {
      stopping = true;
      wake();
    },
    shouldStop: () => stopping,
    async afterStep() {
      await new Promise<void>((resolve) => (paceMs > 0 ? setTimeout(resolve, paceMs) : setImmediate(resolve)));
      while (paused && !stopping) await new Promise<void>((resolve) => (release = resolve));
    },
  };
}
