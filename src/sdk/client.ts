import { requestOf } from "../contract/args.js";
import { clientOperations, operations, type OperationName } from "../contract/index.js";
import type { Frame } from "../domain/frame.js";
import { readFrameParquet } from "../data/parquet.js";
import type { Client } from "../service/client.js";
import type { ModelFileInput } from "../service/auto-submit/upload-model.js";
import type { Lane } from "../store/uploads.js";
import type { UploadInput } from "../service/event/uploads.js";
import { Transport, type TransportOptions } from "./transport.js";
import { batchForm, uploadForm } from "./upload-form.js";
import { modelFileForm } from "./model-file-form.js";

export { ApiError } from "./api-error.js";
export { SimControl } from "./sim-control.js";

export interface ClientOptions extends TransportOptions {
  apiKey: string;
}

/** The path of an operation's first REST endpoint for `args`. */
const pathOf = (name: OperationName, args: readonly unknown[]) => requestOf(operations[name].rest[0], args).path;

// The JSON operations' methods are made in the constructor, one per contract entry.
export interface BasecampClient extends Client {}

/**
 * The service's operations over HTTP, for one API key: the same `Client` the engine's agents use
 * in-process, so a strategy runs unchanged against `basecamp serve` or the real service. Each
 * operation is a call of its REST endpoint as the contract describes it; only the files (parquet
 * downloads, multipart uploads, bytes) are this client's own. Refusals throw `ApiError`; cadence
 * fences, saturated lanes and rate limits are retried per the spec. Non-finite predictions are
 * sent (as "NaN"/"Infinity" strings) for the service to refuse.
 */
export class BasecampClient {
  private readonly http: Transport;

  constructor(opts: ClientOptions) {
    this.http = new Transport(opts.apiKey, opts);
    for (const name of clientOperations) {
      if (!(name in BasecampClient.prototype)) Object.assign(this, { [name]: (...args: unknown[]) => this.http.operation(name, args) });
    }
  }


  async downloadDataset(split: string): Promise<Frame> {
    return readFrameParquet(await this.http.bytes(pathOf("downloadDataset", [split])));
  }

  /** The tournament's benchmark file; `universe` is always "futures" on this service. */
  async downloadBenchmark(_universe: "futures", split: string): Promise<Frame> {
    return readFrameParquet(await this.http.bytes(pathOf("downloadBenchmark", [split])));
  }

  /** The auto-submit lane's model file (multipart `file`, `python_version`, `sha256`); accepted `pending` with 202. */
  uploadModel(input: ModelFileInput): ReturnType<Client["uploadModel"]> {
    return this.http.form(pathOf("uploadModel", [input.model_id]), modelFileForm(input));
  }

  /** The event round lane (multipart); a cadence fence is waited out per its `Retry-After`. */
  uploadRound(input: UploadInput): ReturnType<Client["uploadRound"]> {
    return this.http.form(pathOf("uploadRound", []), uploadForm(input));
  }

  /** The practice board lane (multipart). */
  uploadPractice(input: UploadInput): ReturnType<Client["uploadPractice"]> {
    return this.http.form(pathOf("uploadPractice", []), uploadForm(input));
  }

  /** A batch on one lane; a partial failure (207) resolves too: read `all_succeeded`. */
  uploadBatch(lane: Lane, items: UploadInput[]): ReturnType<Client["uploadBatch"]> {
    const route = operations.uploadBatch.rest.find((r) => r.fixed?.[0] === lane) ?? operations.uploadBatch.rest[0];
    return this.http.form(route.path, batchForm(items));
  }

  /** Follows the job's `download_url` (as the service's SDK does) and answers the model's bytes. */
  async downloadModel(jobId: string): Promise<Uint8Array> {
    const { download_url } = await this.http.operation<{ download_url: string }>("downloadModel", [jobId]);
    return this.http.bytes(new URL(download_url).pathname);
  }

  runOnMachine(machineId: string, command: string): ReturnType<Client["runOnMachine"]> {
    return this.http.operation("runOnMachine", [machineId, { command }]);
  }

  /** A workspace file's bytes; each path segment is escaped, the slashes kept. */
  readMachineFile(machineId: string, path: string): Promise<Uint8Array> {
    return this.http.bytes(pathOf("readMachineFile", [machineId, path]));
  }
}

export { BasecampClient as Client };
