import type { WalkProgress } from "../../sim/backtest/walk.js";
import { wallTime } from "../domain/realtime-clock.js";

/** How the progress shows: one line redrawn in place (a terminal), or plain lines as phases change (`--progress` when piped). */
export type ProgressMode = "redraw" | "lines";

/** How often the redrawn line ticks while nothing else changes (a long load's or fit's elapsed time). */
const TICK_MS = 1000;

/**
 * The backtest's progress on stderr: loading, each Python strategy's fit (elapsed) and the walk
 * (expeds settled of all, ETA). Display only: the wall clock is read here and nowhere in the walk.
 */
export class BacktestProgress {
  private line = "";
  private readonly fits = new Map<string, number>();
  /** What is loading, since when (until a fit or the walk starts). */
  private loading: { what: string; t: number } | null = null;
  /** Where the walk's rate is measured from: the first step after the last fit. */
  private walkFrom: { t: number; step: number } | null = null;
  private lastSettled = -1;
  private readonly ticker: NodeJS.Timeout | null;

  constructor(
    private readonly mode: ProgressMode,
    private readonly write: (s: string) => void = (s) => process.stderr.write(s),
  ) {
    this.ticker = mode === "redraw" ? setInterval(() => this.redraw(), TICK_MS).unref() : null;
  }

  load(what: string): void {
    this.loading = { what, t: wallTime() };
    this.show(`load: ${what}`);
  }

  fitting(agent: string): void {
    this.loading = null;
    this.fits.set(agent, wallTime());
    this.walkFrom = null;
    this.lastSettled = -1; // the walk's line shows again once the fit ends
    this.show(this.fitText());
  }

  fitted(agent: string): void {
    const started = this.fits.get(agent);
    this.fits.delete(agent);
    if (this.mode === "lines" && started !== undefined) this.show(`fit: ${agent} ended after ${duration(wallTime() - started)}`);
  }

  walk(p: WalkProgress): void {
    if (this.fits.size > 0) return;
    this.loading = null;
    const now = wallTime();
    this.walkFrom ??= { t: now, step: p.step };
    const done = p.step - this.walkFrom.step;
    const eta = done > 0 ? ` ETA ${duration(((now - this.walkFrom.t) / done) * (p.steps - p.step))}` : "";
    const text = `walk: ${p.settled} of ${p.rounds} expeds settled${eta}`;
    if (this.mode === "lines" && p.settled === this.lastSettled) return;
    this.lastSettled = p.settled;
    this.show(text);
  }

  /** Clears the redrawn line (before the report or an error) and stops ticking. */
  end(): void {
    if (this.ticker) clearInterval(this.ticker);
    if (this.mode === "redraw" && this.line !== "") this.write("\r\x1b[K");
    this.line = "";
  }

  /** Writes a line of its own (a note, a failure) without tearing the redrawn line. */
  note(text: string): void {
    if (this.mode === "redraw" && this.line !== "") this.write("\r\x1b[K");
    this.write(`${text}\n`);
    if (this.mode === "redraw" && this.line !== "") this.write(`backtest: ${this.line}`);
  }

  private fitText(): string {
    const now = wallTime();
    return `fit: ${[...this.fits].map(([agent, t]) => `${agent} ${duration(now - t)}`).join(", ")}`;
  }

  private redraw(): void {
    if (this.fits.size > 0) this.show(this.fitText());
    else if (this.loading) this.show(`load: ${this.loading.what} ${duration(wallTime() - this.loading.t)}`);
  }

  private show(text: string): void {
    if (this.mode === "redraw" && text === this.line) return;
    this.line = text;
    this.write(this.mode === "redraw" ? `\r\x1b[Kbacktest: ${text}` : `backtest: ${text}\n`);
  }
}

/** 5 s, 2m 05s, 1h 02m. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}
