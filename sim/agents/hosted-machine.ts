import { z } from "zod";
import type { Strategy } from "./strategy.js";
import { withinSlot } from "./timing.js";

/** `{train_file}` in a command becomes the workspace's train split file. */
const TRAIN_FILE = "{train_file}";

const machineParams = z.strictObject({
  /** Shell commands run one after another once the machine is up; then it is left idle. */
  commands: z
    .array(z.string().min(1).max(4096))
    .min(1)
    .max(5)
    .default([
      `wc -l < ${TRAIN_FILE}`,
      `python3 -c "import pandas as pd; d = pd.read_csv('${TRAIN_FILE}'); print(d.shape[0], 'rows', d['exped'].nunique(), 'expeds')"`,
    ]),
});

/**
 * An agent on the hosted machine: early in the build phase it starts a machine, runs a command or
 * two on the train split in its workspace, and then leaves it idle, so the machine hits its idle
 * stop (or a limit); in each round it notes how its session stands, from the records that outlive it.
 */
const hostedMachine: Strategy<z.infer<typeof machineParams>> = {
  name: "hosted_machine",
  kind: "event",
  summary: "starts a hosted machine in the build phase, runs a command or two on the train split, then leaves it idle until it stops",
  params: machineParams,
  actAt: (slot, _p, rng) => withinSlot(slot, rng, 0.05, 0.3),
  act: async (ctx, slot, p) => {
    if (slot.index === 0) {
      const machine = await ctx.client.startMachine();
      ctx.log(`started ${machine.machine_id} (${machine.tier} at $${machine.rate_usd_per_hr}/h, idle stop ${machine.idle_stop_at}, ${machine.limit_reason} stop ${machine.limit_stop_at})`);
      for (const command of p.commands) {
        const ran = await ctx.client.runOnMachine(machine.machine_id, command.replaceAll(TRAIN_FILE, machine.workspace.train_file));
        ctx.log(`ran #${ran.n}: ${ran.outcome} ${ran.exit_code ?? ""} ${ran.output.trim().split("\n").at(-1) ?? ""}`.trimEnd());
      }
      return;
    }
    for (const m of (await ctx.client.listMachines()).machines) {
      ctx.log(
        m.status === "running"
          ? `${m.machine_id} running, ${m.runtime_seconds} s so far`
          : `${m.machine_id} stopped (${m.stop_reason}) at ${m.stopped_at} after ${m.runtime_seconds} s, charged ${m.cost_cents} cents, ${m.commands.length} commands on record`,
      );
    }
  },
};

export const machineStrategies: Strategy<any>[] = [hostedMachine];
