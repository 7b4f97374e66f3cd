import type { Frame } from "../data/frame.js";
import type { Board } from "../scoring/standings.js";
import type { BatchResult } from "./event/batch.js";
import type { EventRoundBoard } from "./event/event-boards.js";
import type { FinalBoard } from "./event/final-board.js";
import type { FinalSelectionView } from "./event/final-selection.js";
import type { AllocationInput, AllocationRecord } from "./event/staking/allocations.js";
import type { EventStakingView } from "./event/staking/view.js";
import type { RunView } from "./event/run-view.js";
import type { Lane } from "../store/uploads.js";
import type { UploadInput } from "./event/uploads.js";
import type { ComputeCredits, TrainEstimate } from "./compute/jobs.js";
import type { JobLog } from "./compute/job-log.js";
import type { JobView } from "./compute/job-view.js";
import type { CommandView, MachineView } from "./compute/machine/machine-view.js";
import type { ModelRecord } from "./models/models.js";
import type { ModelFileInput } from "./auto-submit/upload-model.js";
import type { ModelUploadView } from "./auto-submit/upload-view.js";
import type { RoundView, ScheduleView } from "./rounds/rounds.js";
import type { StakeAllowance } from "./tournament/staking/allowance.js";
import type { StakePolicy } from "./tournament/staking/stake-policy.js";
import type { StakeInput, StakeResult } from "./tournament/staking/wallet-stakes.js";
import type { ScoringView, StatusView, WhoAmI } from "./overview/status.js";
import type { SubmitInput, SubmitResult } from "./tournament/tournament.js";

/**
 * The service's operations as a caller with one API key sees them. The in-process client and the
 * HTTP client both implement it, so a strategy runs unchanged in the engine, against
 * `basecamp serve`, or against the real service.
 */
export interface Client {
  whoami(): Promise<WhoAmI>;
  getStarted(): Promise<StatusView>;
  explainScoring(): Promise<ScoringView>;
  currentRound(): Promise<RoundView>;
  schedule(): Promise<ScheduleView>;
  instruments(): Promise<{ exped: string; instrument_ids: string[]; data_datestamp: string }>;
  downloadDataset(split: string): Promise<Frame>;
  downloadBenchmark(universe: "futures", split: string): Promise<Frame>;
  createModel(input: { name: string }): Promise<ModelRecord & { status: "created" | "already_exists" }>;
  getModels(): Promise<{ models: ModelRecord[] }>;
  archiveModel(model: string): Promise<ModelRecord>;
  submit(input: SubmitInput): Promise<SubmitResult>;

  // The tournament's auto-submit lane: a model file the service runs and submits for each round.
  uploadModel(input: ModelFileInput): Promise<ModelUploadView>;
  getUploadStatus(model: string): Promise<ModelUploadView>;
  setAutoSubmit(input: { model_id: string; enabled: boolean }): Promise<ModelRecord>;
  standings(): Promise<Board & { rounds_settled: number }>;
  roundBoard(exped: string): Promise<Board & { exped: string }>;

  // Tournament staking from the linked wallet.
  stakeFromWallet(input: StakeInput): Promise<StakeResult>;
  getStakeAllowance(): Promise<StakeAllowance>;
  getStake(model: string): Promise<StakePolicy>;

  // Events: the two multipart lanes, runs and boards.
  uploadRound(input: UploadInput): Promise<RunView>;
  uploadPractice(input: UploadInput): Promise<RunView>;
  uploadBatch(lane: Lane, items: UploadInput[]): Promise<BatchResult>;
  getRun(uploadId: string): Promise<RunView>;
  deleteRun(uploadId: string): Promise<{ upload_id: string; status: "cancelled" | "removed" }>;
  eventRoundBoard(window: string): Promise<EventRoundBoard>;
  practiceBoard(): Promise<Board & { display_only: true }>;

  // Event staking and the final selection.
  eventStaking(): Promise<EventStakingView>;
  setStakeAllocation(input: AllocationInput): Promise<AllocationRecord & { spendable_micro: number }>;
  withdrawStakeAllocation(input: { model: string; window?: string }): Promise<{ model_id: string; window: string; withdrawn_micro: number }>;
  getFinalSelection(): Promise<FinalSelectionView>;
  setFinalSelection(models: string[]): Promise<FinalSelectionView>;
  finalBoard(): Promise<FinalBoard>;

  // Events: hosted compute (training jobs on the agent's compute grant).
  train(body: Record<string, unknown>): Promise<TrainEstimate | JobView>;
  getJob(jobId: string): Promise<JobView>;
  /** A job's lifecycle trail. */
  getJobLog(jobId: string): Promise<JobLog>;
  listJobs(): Promise<{ jobs: JobView[] }>;
  cancelJob(jobId: string): Promise<JobView>;
  computeCredits(): Promise<ComputeCredits>;
  /** A completed job's cloudpickled predict callable. */
  downloadModel(jobId: string): Promise<Uint8Array>;
  /** The hosted agent's machine: start, run a command, read a file's bytes, stop, and the sessions' records (one, or all). */
  startMachine(): Promise<MachineView>;
  runOnMachine(machineId: string, command: string): Promise<CommandView>;
  readMachineFile(machineId: string, path: string): Promise<Uint8Array>;
  stopMachine(machineId: string): Promise<MachineView>;
  getMachine(machineId: string): Promise<MachineView>;
  listMachines(): Promise<{ machines: MachineView[] }>;
}
