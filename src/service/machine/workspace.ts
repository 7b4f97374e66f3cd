import { copyFile, rm, writeFile } from "node:fs/promises";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFrameCsv } from "../../data/csv.js";
import { SHELL_RUNNER } from "../../participant/run-shell.js";
import { makeWorkDir } from "../../participant/work-dir.js";
import type { ServiceContext } from "../deployment.js";

/** A running machine's host directories: `dir` holds the runner, `scratch` is the workspace its commands see. */
export interface Workspace {
  dir: string;
  scratch: string;
  runner: string;
}

/** Workspaces by machine id, per service (two services may hand out the same ids: both derive them from the seed). */
const open = new WeakMap<ServiceContext, Map<string, Workspace>>();
/** Every directory still on disk, removed at process exit if its machine never stopped. */
const onDisk = new Set<string>();
process.once("exit", () => {
  for (const dir of onDisk) rmSync(dir, { recursive: true, force: true });
});

/** The train split's file in a fresh workspace (CSV: the sandbox's Python reads it with pandas; it has no Parquet reader). */
export function trainFileName(ctx: ServiceContext): string {
  return `${ctx.world.dataset.spec.prefix}_train.csv`;
}

/**
 * A running machine's workspace, made on first use: a private work directory (work-dir.ts) whose
 * scratch holds the event's train split. A service restarted while a machine runs makes it afresh
 * (its earlier files are lost, as a machine's files are after a stop).
 */
export async function workspaceOf(ctx: ServiceContext, machineId: string): Promise<Workspace> {
  const mine = open.get(ctx) ?? new Map<string, Workspace>();
  open.set(ctx, mine);
  const found = mine.get(machineId);
  if (found) return found;
  const { dir, scratch } = await makeWorkDir();
  onDisk.add(dir);
  const runner = join(dir, "machine_command.py");
  await copyFile(SHELL_RUNNER, runner);
  await writeFile(join(scratch, trainFileName(ctx)), writeFrameCsv(ctx.world.dataset.train));
  const ws = { dir, scratch, runner };
  mine.set(machineId, ws);
  return ws;
}

/** Deletes a stopped machine's files. */
export async function dropWorkspace(ctx: ServiceContext, machineId: string): Promise<void> {
  const ws = open.get(ctx)?.get(machineId);
  if (!ws) return;
  open.get(ctx)?.delete(machineId);
  await rm(ws.dir, { recursive: true, force: true });
  onDisk.delete(ws.dir);
}
