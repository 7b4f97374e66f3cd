import { copyFile, writeFile } from "node:fs/promises";
import { removeAtExit, removedBeforeExit } from "../../../data/exit-cleanup.js";
import { join } from "node:path";
import { writeFrameCsv } from "../../../data/csv.js";
import { SHELL_RUNNER } from "../../../participant/run-shell.js";
import { makeWorkDir, removeWorkDir } from "../../../participant/work-dir.js";
import type { ServiceContext, Workspace } from "../../kernel/context.js";
import { machineSettings } from "../../kernel/settings/machine.js";

type Dataset = ServiceContext["world"]["dataset"];

/** The train split's CSV bytes, made once per dataset: every machine start writes the same file. */
const trainCsv = new WeakMap<Dataset, string>();

/** The train split's file in a fresh workspace (CSV: the sandbox's Python reads it with pandas; it has no Parquet reader). */
export function trainFileName(ctx: ServiceContext): string {
  return `${ctx.world.dataset.spec.prefix}_train.csv`;
}

/** A fresh workspace holding the event's train split, kept for no machine yet (keepWorkspace). */
export async function makeWorkspace(ctx: ServiceContext): Promise<Workspace> {
  // Bounded for the whole session: workspace_mb, apart from the server's own store and spools.
  const { dir, scratch } = await makeWorkDir(machineSettings(ctx).workspace_mb * 1024 ** 2);
  removeAtExit(dir); // if its machine never stops
  const ws: Workspace = { dir, scratch, runner: join(dir, "machine_command.py"), discarded: new AbortController() };
  try {
    await copyFile(SHELL_RUNNER, ws.runner);
    await writeFile(join(scratch, trainFileName(ctx)), trainCsvOf(ctx.world.dataset));
  } catch (e) {
    await discardWorkspace(ws);
    throw e;
  }
  return ws;
}

/** `ws` becomes machine `machineId`'s workspace. */
export function keepWorkspace(ctx: ServiceContext, machineId: string, ws: Workspace): void {
  ctx.state.workspaces.set(machineId, ws);
}

/**
 * A running machine's workspace, made on first use (a service restarted while a machine runs makes
 * it afresh: its earlier files are lost, as a machine's files are after a stop).
 */
export async function workspaceOf(ctx: ServiceContext, machineId: string): Promise<Workspace> {
  const found = ctx.state.workspaces.get(machineId);
  if (found) return found;
  const ws = await makeWorkspace(ctx);
  // Another call may have made one meanwhile: the first kept wins.
  const kept = ctx.state.workspaces.get(machineId);
  if (kept) {
    await discardWorkspace(ws);
    return kept;
  }
  keepWorkspace(ctx, machineId, ws);
  return ws;
}

/** Deletes a stopped machine's files, killing the commands still running in them. */
export async function dropWorkspace(ctx: ServiceContext, machineId: string): Promise<void> {
  const ws = ctx.state.workspaces.get(machineId);
  if (!ws) return;
  ctx.state.workspaces.delete(machineId);
  await discardWorkspace(ws);
}

/** Kills the commands running in a workspace, then deletes its files. */
export async function discardWorkspace(ws: Workspace): Promise<void> {
  ws.discarded.abort();
  await removeWorkDir(ws.dir);
  removedBeforeExit(ws.dir);
}

function trainCsvOf(dataset: Dataset): string {
  const found = trainCsv.get(dataset);
  if (found !== undefined) return found;
  const csv = writeFrameCsv(dataset.train);
  trainCsv.set(dataset, csv);
  return csv;
}

