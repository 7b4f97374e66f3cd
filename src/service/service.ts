import type { Frame } from "../data/frame.js";
import { refuse } from "../domain/errors.js";
import { authenticate, readerScopes, requireScope, type Principal } from "./kernel/auth.js";
import { benchmarkBoard } from "./rounds/benchmarks.js";
import { currentStandings, roundBoard } from "./overview/boards.js";
import { uploadBatch, type BatchItem } from "./event/batch.js";
import { setStakeAllocation, withdrawStakeAllocation, type AllocationInput } from "./event/staking/allocations.js";
import { eventStaking } from "./event/staking/view.js";
import { stakeBalances } from "./overview/stake-balances.js";
import { finalBoard } from "./event/final-board.js";
import { getFinalSelection, setFinalSelection } from "./event/final-selection.js";
import { eventRoundBoard, practiceBoard } from "./event/event-boards.js";
import { IntakeSlots } from "./event/intake-slots.js";
import { deleteRun, getRun } from "./event/runs.js";
import type { Lane } from "../store/uploads.js";
import { upload, type UploadInput, type UploadPath } from "./event/uploads.js";
import { EVENT_UPLOAD_DEFAULTS } from "./kernel/settings/upload-limits.js";
import { uploadCheckPool } from "./event/upload-check-pool.js";
import { advanceRounds, type DueStep } from "./cadence/cadence-steps.js";
import { advanceClockTo, advanceTarget, clockView, holdClock, type AdvanceRequest, type ClockControl } from "./cadence/clock-control.js";
import { ClockWalk, type Appointments } from "./cadence/clock-walk.js";
import { downloadBenchmark, downloadDataset } from "./rounds/data.js";
import type { ServiceContext } from "./kernel/context.js";
import { archiveModel, createModel, getModels } from "./models/models.js";
import { faults, toggleFault, type FaultName } from "./kernel/faults.js";
import { changeScoring, requireOrganiser } from "./kernel/organiser.js";
import { organiserBoards } from "./overview/organiser-boards.js";
import { RateLimiter } from "./kernel/rate-limit.js";
import { lookAhead } from "./cadence/look-ahead.js";
import { runsAhead, stopRunsAhead } from "./kernel/runs-ahead.js";
import { AuthFailures } from "./kernel/auth-failures.js";
import { callerAddress } from "./kernel/caller-address.js";
import { currentRound, instruments, schedule } from "./rounds/rounds.js";
import { explainScoring, getStarted, whoami } from "./overview/status.js";
import { getStakeAllowance } from "./tournament/staking/allowance.js";
import { legacyStaking, type LegacyStakingTool } from "./tournament/staking/legacy.js";
import { stakePolicy } from "./tournament/staking/stake-policy.js";
import { stakeFromWallet, type StakeInput } from "./tournament/staking/wallet-stakes.js";
import { submitV2, type SubmitInput } from "./tournament/tournament.js";
import { getUploadStatus, uploadModel, type ModelFileInput } from "./auto-submit/upload-model.js";
import { setAutoSubmit } from "./auto-submit/switch.js";
import { cancelJob, downloadModel, getCredits, getJob, getJobLog, listJobs, train } from "./compute/jobs.js";
import { fileLimits } from "./kernel/file-limits.js";
import { getMachine, listMachines, readMachineFile, runOnMachine, startMachine, stopMachine } from "./compute/machine/sessions.js";

export interface ServiceOptions {
  /** The organiser's hold on the clock (`basecamp serve`); without it clock control is refused. */
  clockControl?: ClockControl;
  /** Work kept as the clock passes its instants (`serve --with-agents`), made once for this service. */
  appointments?: (service: Service) => Appointments;
}

/**
 * The service's operations, one method each, for every face to call with the caller's API key.
 * Each call first brings the rounds up to the clock, so every face sees the same state at the same
 * simulated time. Calls run one at a time: a settlement awaiting its scores never interleaves
 * with another call. Every keyed call counts against the deployment's rate limit for its
 * operation (the spec's "per key and endpoint": one operation is one endpoint).
 */
export class Service {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limiter: RateLimiter;
  private readonly authFailures: AuthFailures;
  private readonly intake: Record<Lane, IntakeSlots>;
  private readonly walk: ClockWalk | undefined;

  constructor(
    readonly ctx: ServiceContext,
    private readonly options: ServiceOptions = {},
  ) {
    this.limiter = new RateLimiter(ctx.world.deployment.rate_limit);
    this.authFailures = new AuthFailures(ctx.world.deployment.rate_limit);
    const event = ctx.world.deployment.event;
    const lane = () => new IntakeSlots(event?.intake_concurrency ?? 1, event?.intake_per_agent ?? 1);
    this.intake = { round: lane(), practice: lane() };
    this.walk =
      options.appointments &&
      new ClockWalk(ctx, options.appointments(this), (fn) => this.run(fn), (t) => runsAhead(ctx).due(t) ?? Promise.resolve());
  }

  /**
   * A place in a multipart lane's bounded intake for the agent `key` stands for, taken after the
   * key is authenticated (a missing, unknown or blocked key is refused and holds nothing) and
   * before the face reads an upload's body; 503 with `Retry-After: 5` when the lane, or the agent's
   * share of it, is full. Call the returned function once done.
   */
  intakeSlot(key: string | undefined, lane: Lane): () => void {
    return this.intake[lane].take(this.authenticate(key).agent_id);
  }

  /**
   * How an upload reaches the store: its short steps on the serial path, its files read by the
   * deployment's pool of worker threads meanwhile (authenticated and counted first, so no unknown
   * key makes the service read a file). A machine command takes the same serial steps (its run is
   * the work done meanwhile).
   */
  private readonly uploadPath: UploadPath = {
    serial: (fn) => this.run(fn),
    checkFiles: (files, rules) => {
      // A tournament's model files are checked by a pool of the event's default size.
      const pool = this.ctx.world.deployment.event ?? EVENT_UPLOAD_DEFAULTS;
      return uploadCheckPool(pool.upload_check_workers, pool.upload_check_memory_mb).check(files, rules);
    },
  };

  /** Runs `fn` after every earlier call has finished. */
  private serial<T>(fn: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `fn` on the serial path after the rounds are brought up to the clock (it is given the
   * round transitions that applied). The participant runs (predicts, sandboxed fits) of the steps
   * due by now are awaited first, off the serial path, so the steps only write their results; the
   * runs `fn` has made ready start right after it (src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts).
   */
  private run<T>(fn: (steps: DueStep[]) => T | Promise<T>): Promise<T> {
    const onPath = () =>
      this.serial(async () => {
        const steps = await advanceRounds(this.ctx);
        try {
          return await fn(steps);
        } finally {
          lookAhead(this.ctx);
        }
      });
    return this.afterRunsDue(this.ctx.clock.now(), onPath);
  }

  /** `then` once the runs of the steps due by `t` have finished; at once (keeping the calls' order) when none is under way. */
  private afterRunsDue<T>(t: number, then: () => Promise<T>): Promise<T> {
    const waiting = runsAhead(this.ctx).due(t);
    return waiting ? waiting.then(then) : then();
  }

  /**
   * Who `key` stands for. A network caller (a face set its address) whose unknown keys passed the
   * ceiling is refused (429) before its key is looked up, unless the key is one already at work from
   * that address; each unknown key counts one against it.
   */
  private authenticate(key: string | undefined | null): Principal {
    const address = callerAddress();
    if (address === undefined) return authenticate(this.ctx, key);
    const now = this.ctx.clock.now();
    this.authFailures.check(address, key, now);
    return this.authFailures.counting(address, key, now, () => authenticate(this.ctx, key));
  }

  /** Authenticates `key`, counts the call against the rate limit of `operation`, then runs `fn`. */
  private as<T>(key: string | undefined, operation: string, fn: (p: Principal) => T | Promise<T>): Promise<T> {
    return this.run(() => {
      const p = this.authenticate(key);
      this.limiter.hit(key as string, operation, this.ctx.clock.now());
      return fn(p);
    });
  }

  /** A read any key but an LLM-scoped one may make. */
  private read<T>(key: string | undefined, operation: string, fn: (p: Principal) => T): Promise<T> {
    return this.as(key, operation, (p) => {
      requireScope(p, readerScopes, operation);
      return fn(p);
    });
  }

  private organiser<T>(key: string | undefined, fn: () => T | Promise<T>): Promise<T> {
    return this.run(() => {
      requireOrganiser(this.ctx, key);
      return fn();
    });
  }

  private clockControl(): ClockControl {
    if (!this.options.clockControl) throw refuse("clock_control_unavailable");
    return this.options.clockControl;
  }

  /**
   * Resolves once every call made so far, the clock's walk under way and the participants' runs
   * under way have finished, with no further run planned (a clean shutdown waits on it).
   */
  async idle(): Promise<void> {
    await this.walk?.idle();
    await this.serial(() => undefined);
    await stopRunsAhead(this.ctx);
  }

  /** Applies every round transition due by now; returns what it did. */
  sync(): Promise<DueStep[]> {
    return this.run((steps) => steps);
  }

  /** Brings the service up to the clock, keeping every appointment the clock has passed. */
  catchUp(): Promise<void> {
    return this.walk ? this.walk.catchUp() : this.sync().then(() => undefined);
  }

  /**
   * The upload limits, for a face that must read a caller's files itself: the key is authenticated
   * first (401 before any file is touched) and the call is not counted against a rate limit.
   */
  fileLimits = (key: string | undefined) =>
    this.run(() => {
      authenticate(this.ctx, key);
      return fileLimits(this.ctx);
    });

  /** Never refuses: a bad or missing key answers `authenticated: false`. */
  whoami = (key: string | undefined) => this.run(() => whoami((k) => this.authenticate(k), key));
  getStarted = (key: string | undefined) => this.as(key, "get_started", (p) => getStarted(this.ctx, p));
  /** Public: needs no key. */
  explainScoring = () => this.run(() => explainScoring(this.ctx));
  currentRound = (key: string | undefined) => this.read(key, "current_round", () => currentRound(this.ctx));
  schedule = (key: string | undefined) => this.read(key, "schedule", () => schedule(this.ctx));
  instruments = (key: string | undefined) => this.read(key, "instruments", () => instruments(this.ctx));
  downloadDataset = (key: string | undefined, split: string): Promise<Frame> =>
    this.as(key, "download_dataset", (p) => downloadDataset(this.ctx, p, split));
  downloadBenchmark = (key: string | undefined, split: string): Promise<Frame> =>
    this.as(key, "download_benchmark", (p) => downloadBenchmark(this.ctx, p, split));
  benchmarks = (key: string | undefined) => this.read(key, "get_benchmarks", (p) => benchmarkBoard(this.ctx, p));
  createModel = (key: string | undefined, input: { name: string }) =>
    this.as(key, "create_model", (p) => createModel(this.ctx, p, input));
  getModels = (key: string | undefined) => this.read(key, "get_models", (p) => getModels(this.ctx, p));
  archiveModel = (key: string | undefined, ref: string) => this.as(key, "archive_model", (p) => archiveModel(this.ctx, p, ref));
  submit = (key: string | undefined, input: SubmitInput) => this.as(key, "submit_v2", (p) => submitV2(this.ctx, p, input));

  /** Tournament auto-submit lane: a model file for one of the caller's models, accepted `pending` (202). */
  uploadModel = (key: string | undefined, input: ModelFileInput) =>
    this.as(key, "upload_model", (p) => p).then((p) => uploadModel(this.ctx, this.uploadPath, p, input));
  /** The model's current model file: pending → validating → validated | error, and its lane. */
  getUploadStatus = (key: string | undefined, model: string) =>
    this.as(key, "get_upload_status", (p) => getUploadStatus(this.ctx, p, model));
  /** Switches a model's auto-submit lane on or off. */
  setAutoSubmit = (key: string | undefined, input: { model_id: string; enabled: boolean }) =>
    this.as(key, "set_auto_submit", (p) => setAutoSubmit(this.ctx, p, input));
  /** The season's (or the event's cumulative) standings. */
  standings = (key: string | undefined) => this.read(key, "standings", () => currentStandings(this.ctx));
  roundBoard = (key: string | undefined, exped: string) => this.read(key, "round_board", () => roundBoard(this.ctx, exped));

  /** Tournament staking: a principal from the caller's wallet on one of its models, for the open round. */
  stakeFromWallet = (key: string | undefined, input: StakeInput) =>
    this.as(key, "stake_from_wallet", (p) => stakeFromWallet(this.ctx, p, input));
  getStakeAllowance = (key: string | undefined) => this.as(key, "get_stake_allowance", (p) => getStakeAllowance(this.ctx, p));
  /** One model's stake policy: every round it is or was staked on. */
  getStake = (key: string | undefined, model: string) => this.as(key, "get_stake", (p) => stakePolicy(this.ctx, p, model));
  /** A legacy test-network staking tool: always refused (410) on this real-money simulation. */
  legacyStaking = (key: string | undefined, tool: LegacyStakingTool): Promise<never> =>
    this.as(key, tool, (p) => legacyStaking(this.ctx, p, tool));

  /** Event round lane: cadence-fenced, draws on the upload pool. Accepted with 202. */
  uploadRound = (key: string | undefined, input: UploadInput) =>
    this.as(key, "upload_round", (p) => p).then((p) => upload(this.ctx, this.uploadPath, p, "round", input));
  /** Practice board lane: never fenced, free of the pool. Accepted with 202. */
  uploadPractice = (key: string | undefined, input: UploadInput) =>
    this.as(key, "upload_practice", (p) => p).then((p) => upload(this.ctx, this.uploadPath, p, "practice", input));
  uploadBatch = (key: string | undefined, lane: Lane, items: BatchItem[]) =>
    this.as(key, "upload_batch", (p) => p).then((p) => uploadBatch(this.ctx, this.uploadPath, p, lane, items));
  getRun = (key: string | undefined, uploadId: string) => this.as(key, "get_run", (p) => getRun(this.ctx, p, uploadId));
  deleteRun = (key: string | undefined, uploadId: string) => this.as(key, "delete_run", (p) => deleteRun(this.ctx, p, uploadId));
  eventRoundBoard = (key: string | undefined, window: string) =>
    this.read(key, "event_round_board", () => eventRoundBoard(this.ctx, window));
  practiceBoard = (key: string | undefined) => this.read(key, "practice_board", () => practiceBoard(this.ctx));

  /** Event staking: the caller's terms, draft window, deposit and per-round allocations. */
  eventStaking = (key: string | undefined) => this.as(key, "get_event_staking", (p) => eventStaking(this.ctx, p));
  /** Drafts (or redrafts) a stake on a model for the open round; locks as the round closes. */
  setStakeAllocation = (key: string | undefined, input: AllocationInput) =>
    this.as(key, "set_stake_allocation", (p) => setStakeAllocation(this.ctx, p, input));
  /** Withdraws an unlocked draft. */
  withdrawStakeAllocation = (key: string | undefined, input: { model: string; window?: string }) =>
    this.as(key, "withdraw_stake_allocation", (p) => withdrawStakeAllocation(this.ctx, p, input));
  getFinalSelection = (key: string | undefined) => this.as(key, "get_final_selection", (p) => getFinalSelection(this.ctx, p));
  setFinalSelection = (key: string | undefined, models: string[]) =>
    this.as(key, "set_final_selection", (p) => setFinalSelection(this.ctx, p, models));
  finalBoard = (key: string | undefined) => this.read(key, "final_board", () => finalBoard(this.ctx));

  /** Hosted compute (events): a training job drawn from the agent's compute grant, or its price (`dry_run`). */
  train = (key: string | undefined, body: Record<string, unknown>) => this.as(key, "train", (p) => train(this.ctx, p, body));
  getJob = (key: string | undefined, jobId: string) => this.as(key, "get_job_status", (p) => getJob(this.ctx, p, jobId));
  /** A job's lifecycle trail: queued, running, its CV folds' results, how it ended. */
  getJobLog = (key: string | undefined, jobId: string) => this.as(key, "get_job_log", (p) => getJobLog(this.ctx, p, jobId));
  listJobs = (key: string | undefined) => this.as(key, "list_compute_jobs", (p) => listJobs(this.ctx, p));
  cancelJob = (key: string | undefined, jobId: string) => this.as(key, "cancel_job", (p) => cancelJob(this.ctx, p, jobId));
  computeCredits = (key: string | undefined) => this.as(key, "get_compute_credits", (p) => getCredits(this.ctx, p));
  /** A completed job's model: a cloudpickled predict callable. */
  downloadModel = (key: string | undefined, jobId: string) => this.as(key, "download_model", (p) => downloadModel(this.ctx, p, jobId));

  /** The hosted agent's machine (events): one session at a time, charged from the compute grant, stopped when idle or at its limits. */
  startMachine = (key: string | undefined) => this.as(key, "start_machine", (p) => startMachine(this.ctx, p));
  runOnMachine = (key: string | undefined, machineId: string, body: Record<string, unknown>) =>
    this.as(key, "run_on_machine", (p) => p).then((p) => runOnMachine(this.ctx, this.uploadPath, p, machineId, body));
  readMachineFile = (key: string | undefined, machineId: string, path: string) =>
    this.as(key, "read_machine_file", (p) => readMachineFile(this.ctx, p, machineId, path));
  stopMachine = (key: string | undefined, machineId: string) => this.as(key, "stop_machine", (p) => stopMachine(this.ctx, p, machineId));
  getMachine = (key: string | undefined, machineId: string) => this.as(key, "get_machine", (p) => getMachine(this.ctx, p, machineId));
  listMachines = (key: string | undefined) => this.as(key, "list_machine_sessions", (p) => listMachines(this.ctx, p));

  /** Organiser: the served clock, its mode and the cadence now. */
  clock = (key: string | undefined) => this.organiser(key, () => clockView(this.ctx, this.clockControl()));
  /** Organiser: moves the clock forward and applies the round transitions due on the way (keeping the appointments due, in time order). */
  advanceClock = (key: string | undefined, request: AdvanceRequest) =>
    this.walk
      ? this.walk.advance(() => this.clockControl(), request, () => requireOrganiser(this.ctx, key))
      : this.organiser(key, () => ({ control: this.clockControl(), until: advanceTarget(this.ctx, request) })).then(({ control, until }) =>
          this.afterRunsDue(until, () => this.run(() => advanceClockTo(this.ctx, control, until))),
        );
  /** Organiser: holds a realtime clock still (`hold`), or lets it run on. */
  holdClock = (key: string | undefined, hold: boolean) => this.organiser(key, () => holdClock(this.ctx, this.clockControl(), hold));
  /** Organiser: the live scoring settings. */
  changeScoring = (key: string | undefined, change: Parameters<typeof changeScoring>[1]) =>
    this.organiser(key, () => changeScoring(this.ctx, change));
  /** Organiser: every staking agent's money (event deposits, or tournament stake earnings), ranked; null when nobody stakes. */
  stakeBalances = (key: string | undefined) => this.organiser(key, () => stakeBalances(this.ctx));
  /** Organiser: the standings, the newest rounds' boards and the practice board, as participants read them. */
  boards = (key: string | undefined) => this.organiser(key, () => organiserBoards(this.ctx));
  /** Organiser: the faults now in force. */
  currentFaults = (key: string | undefined) => this.organiser(key, () => faults(this.ctx));
  /** Organiser: withhold (or restore) a round's live `v1_designated` column. */
  toggleFault = (key: string | undefined, fault: FaultName, round: number | undefined, on: boolean) =>
    this.organiser(key, () => toggleFault(this.ctx, fault, round, on));
}
