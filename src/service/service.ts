import type { Frame } from "../data/frame.js";
import { authenticate, type Principal } from "./auth.js";
import { roundBoard, seasonStandings } from "./boards.js";
import { advanceRounds, type DueStep } from "./cadence-steps.js";
import { downloadBenchmark, downloadDataset } from "./data.js";
import type { ServiceContext } from "./deployment.js";
import { archiveModel, createModel, getModels } from "./models.js";
import { toggleMissingBenchmark } from "./faults.js";
import { changeScoring, requireOrganiser } from "./organiser.js";
import { currentRound, instruments, schedule } from "./rounds.js";
import { explainScoring, getStarted, whoami } from "./status.js";
import { submitV2, type SubmitInput } from "./tournament.js";

/**
 * The service's operations, one method each, for every face to call with the caller's API key.
 * Each call first brings the rounds up to the clock, so every face sees the same state at the same
 * simulated time. Calls run one at a time: a settlement awaiting its scores never interleaves
 * with another call.
 */
export class Service {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly ctx: ServiceContext) {}

  /** Runs `fn` after every earlier call has finished. */
  private serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private run<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.serial(async () => {
      await advanceRounds(this.ctx);
      return fn();
    });
  }

  private as<T>(key: string | undefined, fn: (p: Principal) => T | Promise<T>): Promise<T> {
    return this.run(() => fn(authenticate(this.ctx, key)));
  }

  /** Applies every round transition due by now; returns what it did. */
  sync(): Promise<DueStep[]> {
    return this.serial(() => advanceRounds(this.ctx));
  }

  whoami = (key: string | undefined) => this.run(() => whoami(this.ctx, key));
  getStarted = (key: string | undefined) => this.as(key, (p) => getStarted(this.ctx, p));
  explainScoring = () => this.run(() => explainScoring(this.ctx));
  currentRound = () => this.run(() => currentRound(this.ctx));
  schedule = () => this.run(() => schedule(this.ctx));
  instruments = () => this.run(() => instruments(this.ctx));
  downloadDataset = (key: string | undefined, split: string): Promise<Frame> =>
    this.as(key, (p) => downloadDataset(this.ctx, p, split));
  downloadBenchmark = (key: string | undefined, split: string): Promise<Frame> =>
    this.as(key, (p) => downloadBenchmark(this.ctx, p, split));
  createModel = (key: string | undefined, input: { name: string }) =>
    this.as(key, (p) => createModel(this.ctx, p, input));
  getModels = (key: string | undefined) => this.as(key, (p) => getModels(this.ctx, p));
  archiveModel = (key: string | undefined, ref: string) => this.as(key, (p) => archiveModel(this.ctx, p, ref));
  submit = (key: string | undefined, input: SubmitInput) => this.as(key, (p) => submitV2(this.ctx, p, input));
  /** Organiser: the live scoring settings. */
  changeScoring = (key: string | undefined, change: Parameters<typeof changeScoring>[1]) =>
    this.run(() => {
      requireOrganiser(this.ctx, key);
      return changeScoring(this.ctx, change);
    });
  /** Organiser: withhold (or restore) a round's live `v1_designated` column. */
  toggleMissingBenchmark = (key: string | undefined, round: number, on: boolean) =>
    this.run(() => {
      requireOrganiser(this.ctx, key);
      return toggleMissingBenchmark(this.ctx, round, on);
    });
  standings = () => this.run(() => seasonStandings(this.ctx));
  roundBoard = (exped: string) => this.run(() => roundBoard(this.ctx, exped));
}
