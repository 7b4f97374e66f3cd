import { cancelJob, downloadModel, getCredits, getJob, getJobLog, listJobs, train } from "../compute/jobs.js";
import { getMachine, listMachines, readMachineFile, runOnMachine, startMachine, stopMachine } from "../compute/machine/sessions.js";
import { offPath, type Call } from "./call.js";

/** Hosted compute (events): training jobs and the agent's machine, drawn from its compute grant. */
export const computeHandlers = {
  /** A training job, or its price (`dry_run`). */
  train: (c: Call, body: Record<string, unknown>) => train(c.ctx, c.principal, body),
  getJob: (c: Call, jobId: string) => getJob(c.ctx, c.principal, jobId),
  /** A job's lifecycle trail: queued, running, its CV folds' results, how it ended. */
  getJobLog: (c: Call, jobId: string) => getJobLog(c.ctx, c.principal, jobId),
  listJobs: (c: Call) => listJobs(c.ctx, c.principal),
  cancelJob: (c: Call, jobId: string) => cancelJob(c.ctx, c.principal, jobId),
  computeCredits: (c: Call) => getCredits(c.ctx, c.principal),
  /** A completed job's model: a cloudpickled predict callable. */
  downloadModel: (c: Call, jobId: string) => downloadModel(c.ctx, c.principal, jobId),
  /** One session at a time, charged from the compute grant, stopped when idle or at its limits. */
  startMachine: (c: Call) => startMachine(c.ctx, c.principal),
  /** A command's run is the work done off the serial path. */
  runOnMachine: offPath((c: Call, machineId: string, body: Record<string, unknown>) => runOnMachine(c.ctx, c.uploadPath, c.principal, machineId, body)),
  readMachineFile: (c: Call, machineId: string, path: string) => readMachineFile(c.ctx, c.principal, machineId, path),
  stopMachine: (c: Call, machineId: string) => stopMachine(c.ctx, c.principal, machineId),
  getMachine: (c: Call, machineId: string) => getMachine(c.ctx, c.principal, machineId),
  listMachines: (c: Call) => listMachines(c.ctx, c.principal),
};
