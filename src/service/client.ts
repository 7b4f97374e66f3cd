import type { ClientOperationName, Operations } from "../contract/index.js";
import type { Frame } from "../domain/frame.js";
import type { BatchResult } from "./event/batch.js";
import type { Lane } from "../store/uploads.js";
import type { UploadInput } from "./event/uploads.js";
import type { CommandView } from "./compute/machine/machine-view.js";
import type { ServiceOperations } from "./service.js";

/** A service method as a client with its own key calls it: without the key. */
type Keyless<F> = F extends (key: string | undefined, ...args: infer A) => infer R ? (...args: A) => R : never;

type Derived = {
  [N in ClientOperationName]: Operations[N]["scope"] extends "none" ? ServiceOperations[N] : Keyless<ServiceOperations[N]>;
};

/** The operations whose client takes or answers something else than the service: bytes, a command, a universe, whole uploads. */
type OwnSignature = "downloadBenchmark" | "uploadBatch" | "downloadModel" | "runOnMachine" | "readMachineFile";

/**
 * The service's operations as a caller with one API key sees them, made from the contract. The
 * in-process client and the HTTP client both implement it, so a strategy runs unchanged in the
 * engine, against `basecamp serve`, or against the real service.
 */
export interface Client extends Omit<Derived, OwnSignature> {
  /** The tournament's benchmark file; `universe` is always "futures" on this service. */
  downloadBenchmark(universe: "futures", split: string): Promise<Frame>;
  uploadBatch(lane: Lane, items: UploadInput[]): Promise<BatchResult>;
  /** A completed job's cloudpickled predict callable. */
  downloadModel(jobId: string): Promise<Uint8Array>;
  runOnMachine(machineId: string, command: string): Promise<CommandView>;
  /** A workspace file's bytes. */
  readMachineFile(machineId: string, path: string): Promise<Uint8Array>;
}
