import type { Frame } from "../data/frame.js";
import { readFrameParquet } from "../data/parquet.js";
import type { Board } from "../scoring/standings.js";
import type { Client } from "../service/client.js";
import type { BatchResult } from "../service/event/batch.js";
import type { EventRoundBoard } from "../service/event/event-boards.js";
import type { FinalBoard } from "../service/event/final-board.js";
import type { FinalSelectionView } from "../service/event/final-selection.js";
import type { AllocationInput, AllocationRecord } from "../service/event/staking/allocations.js";
import type { EventStakingView } from "../service/event/staking/view.js";
import type { RunView } from "../service/event/run-view.js";
import type { Lane } from "../store/uploads.js";
import type { UploadInput } from "../service/event/uploads.js";
import type { ComputeCredits, TrainEstimate } from "../service/compute/jobs.js";
import type { JobLog } from "../service/compute/job-log.js";
import type { JobView } from "../service/compute/job-view.js";
import type { CommandView, MachineView } from "../service/compute/machine/machine-view.js";
import type { ModelRecord } from "../service/models/models.js";
import type { ModelFileInput } from "../service/auto-submit/upload-model.js";
import type { ModelUploadView } from "../service/auto-submit/upload-view.js";
import type { RoundView, ScheduleView } from "../service/rounds/rounds.js";
import type { StakeAllowance } from "../service/tournament/staking/allowance.js";
import type { StakePolicy } from "../service/tournament/staking/stake-policy.js";
import type { StakeInput, StakeResult } from "../service/tournament/staking/wallet-stakes.js";
import type { ScoringView, StatusView, WhoAmI } from "../service/overview/status.js";
import type { SubmitInput, SubmitResult } from "../service/tournament/tournament.js";
import { Transport, type TransportOptions } from "./transport.js";
import { batchForm, uploadForm } from "./upload-form.js";
import { modelFileForm } from "./model-file-form.js";

export { ApiError } from "./api-error.js";
export { SimControl } from "./sim-control.js";

export interface ClientOptions extends TransportOptions {
  apiKey: string;
}

const seg = encodeURIComponent;

/**
 * The service's operations over HTTP, for one API key: the same `Client` the engine's agents use
 * in-process, so a strategy runs unchanged against `basecamp serve` or the real service. Refusals
 * throw `ApiError`; cadence fences, saturated lanes and rate limits are retried per the spec.
 */
export class BasecampClient implements Client {
  private readonly http: Transport;

  constructor(opts: ClientOptions) {
    this.http = new Transport(opts.apiKey, opts);
  }

  whoami(): Promise<WhoAmI> {
    return this.http.json("GET", "/api/v1/whoami");
  }

  getStarted(): Promise<StatusView> {
    return this.http.json("GET", "/api/v1/status");
  }

  explainScoring(): Promise<ScoringView> {
    return this.http.json("GET", "/api/v1/scoring");
  }

  currentRound(): Promise<RoundView> {
    return this.http.json("GET", "/api/v1/rounds/current");
  }

  schedule(): Promise<ScheduleView> {
    return this.http.json("GET", "/api/v1/schedule");
  }

  instruments(): Promise<{ exped: string; instrument_ids: string[]; data_datestamp: string }> {
    return this.http.json("GET", "/api/v1/futures/rounds/current/instruments");
  }

  async downloadDataset(split: string): Promise<Frame> {
    return readFrameParquet(await this.http.bytes(`/api/v1/futures/data/${seg(split)}`));
  }

  /** The tournament's benchmark file; `universe` is always "futures" on this service. */
  async downloadBenchmark(_universe: "futures", split: string): Promise<Frame> {
    return readFrameParquet(await this.http.bytes(`/api/v1/futures/data/${seg(split)}_benchmark_models`));
  }

  /** The benchmark catalogue (mean CORR, mean AIMC, Sharpe per published benchmark). */
  benchmarks(): Promise<Record<string, unknown>> {
    return this.http.json("GET", "/api/v1/benchmarks/board");
  }

  createModel(input: { name: string }): Promise<ModelRecord & { status: "created" | "already_exists" }> {
    return this.http.json("POST", "/api/v1/models", input);
  }

  getModels(): Promise<{ models: ModelRecord[] }> {
    return this.http.json("GET", "/api/v1/models");
  }

  archiveModel(model: string): Promise<ModelRecord> {
    return this.http.json("POST", `/api/v1/models/${seg(model)}/archive`);
  }

  /** Submit v2. Non-finite predictions are sent (as "NaN"/"Infinity" strings) for the service to refuse. */
  submit(input: SubmitInput): Promise<SubmitResult> {
    return this.http.json("POST", "/api/v1/futures/submit/v2", input);
  }

  /** The auto-submit lane's model file (multipart `file`, `python_version`, `sha256`); accepted `pending` with 202. */
  uploadModel(input: ModelFileInput): Promise<ModelUploadView> {
    return this.http.form(`/api/v1/models/${seg(input.model_id)}/upload`, modelFileForm(input));
  }

  getUploadStatus(model: string): Promise<ModelUploadView> {
    return this.http.json("GET", `/api/v1/models/${seg(model)}/upload/status`);
  }

  setAutoSubmit(input: { model_id: string; enabled: boolean }): Promise<ModelRecord> {
    return this.http.json("POST", `/api/v1/models/${seg(input.model_id)}/auto-submit`, { enabled: input.enabled });
  }

  standings(): Promise<Board & { rounds_settled: number }> {
    return this.http.json("GET", "/api/v1/futures/standings");
  }

  roundBoard(exped: string): Promise<Board & { exped: string }> {
    return this.http.json("GET", `/api/v1/futures/rounds/${seg(exped)}/board`);
  }

  /** Stakes `amount_usdc` (a decimal string, or a number) from the linked wallet on a model, for the open round. */
  stakeFromWallet(input: StakeInput): Promise<StakeResult> {
    return this.http.json("POST", "/api/v1/staking/stake", input);
  }

  getStakeAllowance(): Promise<StakeAllowance> {
    return this.http.json("GET", "/api/v1/staking/allowance");
  }

  getStake(model: string): Promise<StakePolicy> {
    return this.http.json("GET", `/api/v1/staking/models/${seg(model)}`);
  }

  /** The event round lane (multipart); a cadence fence is waited out per its `Retry-After`. */
  uploadRound(input: UploadInput): Promise<RunView> {
    return this.http.form("/api/v1/event/predictions/upload", uploadForm(input));
  }

  /** The practice board lane (multipart). */
  uploadPractice(input: UploadInput): Promise<RunView> {
    return this.http.form("/api/v1/diagnostics/upload", uploadForm(input));
  }

  /** A batch on one lane; a partial failure (207) resolves too: read `all_succeeded`. */
  uploadBatch(lane: Lane, items: UploadInput[]): Promise<BatchResult> {
    const path = lane === "round" ? "/api/v1/event/predictions/batch" : "/api/v1/diagnostics/batch";
    return this.http.form(path, batchForm(items));
  }

  getRun(uploadId: string): Promise<RunView> {
    return this.http.json("GET", `/api/v1/diagnostics/runs/${seg(uploadId)}`);
  }

  deleteRun(uploadId: string): Promise<{ upload_id: string; status: "cancelled" | "removed" }> {
    return this.http.json("DELETE", `/api/v1/diagnostics/runs/${seg(uploadId)}`);
  }

  eventRoundBoard(window: string): Promise<EventRoundBoard> {
    return this.http.json("GET", `/api/v1/event/rounds/${seg(window)}/board`);
  }

  practiceBoard(): Promise<Board & { display_only: true }> {
    return this.http.json("GET", "/api/v1/diagnostics/board");
  }

  eventStaking(): Promise<EventStakingView> {
    return this.http.json("GET", "/api/v1/event/staking");
  }

  /** `amount_usdc` is a decimal string ("2.5"): the service refuses a JSON number. */
  setStakeAllocation(input: AllocationInput): Promise<AllocationRecord & { spendable_micro: number }> {
    return this.http.json("POST", "/api/v1/event/staking/allocations", input);
  }

  withdrawStakeAllocation(input: { model: string; window?: string }): Promise<{ model_id: string; window: string; withdrawn_micro: number }> {
    return this.http.json("POST", "/api/v1/event/staking/withdraw", input);
  }

  getFinalSelection(): Promise<FinalSelectionView> {
    return this.http.json("GET", "/api/v1/event/final/selection");
  }

  setFinalSelection(models: string[]): Promise<FinalSelectionView> {
    return this.http.json("POST", "/api/v1/event/final/selection", { models });
  }

  finalBoard(): Promise<FinalBoard> {
    return this.http.json("GET", "/api/v1/event/final/board");
  }

  /** Launches a training job (202), or with `dry_run: true` prices it (200). */
  train(body: Record<string, unknown>): Promise<TrainEstimate | JobView> {
    return this.http.json("POST", "/api/v1/compute/train", body);
  }

  getJob(jobId: string): Promise<JobView> {
    return this.http.json("GET", `/api/v1/compute/jobs/${seg(jobId)}`);
  }

  /** A job's lifecycle trail. */
  getJobLog(jobId: string): Promise<JobLog> {
    return this.http.json("GET", `/api/v1/compute/jobs/${seg(jobId)}/log`);
  }

  listJobs(): Promise<{ jobs: JobView[] }> {
    return this.http.json("GET", "/api/v1/compute/jobs");
  }

  cancelJob(jobId: string): Promise<JobView> {
    return this.http.json("DELETE", `/api/v1/compute/jobs/${seg(jobId)}`);
  }

  computeCredits(): Promise<ComputeCredits> {
    return this.http.json("GET", "/api/v1/compute/credits");
  }

  /** Follows the job's `download_url` (as the service's SDK does) and answers the model's bytes. */
  async downloadModel(jobId: string): Promise<Uint8Array> {
    const { download_url } = await this.http.json<{ download_url: string }>("GET", `/api/v1/compute/jobs/${seg(jobId)}/model`);
    return this.http.bytes(new URL(download_url).pathname);
  }

  /** Starts the caller's hosted machine (201). */
  startMachine(): Promise<MachineView> {
    return this.http.json("POST", "/api/v1/compute/machines");
  }

  runOnMachine(machineId: string, command: string): Promise<CommandView> {
    return this.http.json("POST", `/api/v1/compute/machines/${seg(machineId)}/run`, { command });
  }

  /** A workspace file's bytes; each path segment is escaped, the slashes kept. */
  readMachineFile(machineId: string, path: string): Promise<Uint8Array> {
    return this.http.bytes(`/api/v1/compute/machines/${seg(machineId)}/files/${path.split("/").map(seg).join("/")}`);
  }

  stopMachine(machineId: string): Promise<MachineView> {
    return this.http.json("DELETE", `/api/v1/compute/machines/${seg(machineId)}`);
  }

  getMachine(machineId: string): Promise<MachineView> {
    return this.http.json("GET", `/api/v1/compute/machines/${seg(machineId)}`);
  }

  listMachines(): Promise<{ machines: MachineView[] }> {
    return this.http.json("GET", "/api/v1/compute/machines");
  }
}

export { BasecampClient as Client };
