import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { addTool, type ToolContext } from "./tool.js";

const model = z.string().min(1).describe("Your model's returned name (participant_…) or id (mdl_…)");
const window = z.string().min(1).optional().describe("A guard: must name the window being drafted (round_N, the open round)");

/** Event staking and the final selection. */
export function registerEventStakingTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "get_event_staking",
    description:
      "Your event staking: money_event, staking_armed, phase, stake_window_open, draft_window, max_slots, min_stake_micro, " +
      "principal/settled/net/locked/spendable in integer micro-USDC (null with balance_unavailable when the deposit cannot be read), " +
      "and per round window its stake_return_amplitude, payout_factor, allocations and settlements.",
    input: {},
    readOnly: true,
    run: () => service.eventStaking(key),
  });
  addTool(server, log, {
    name: "set_stake_allocation",
    description:
      "Drafts (or redrafts) a stake on one of your models for the open round, after the model has submitted in it. amount_usdc is " +
      "a decimal string (\"2.5\", at most 6 decimals). Drafts lock as the round closes and settle as the next round opens: " +
      "payout = stake · A·tanh(payout_factor·score/A).",
    input: { model, amount_usdc: z.string().describe("USDC as a decimal string, e.g. \"2.5\""), window },
    run: (input) => service.setStakeAllocation(key, input),
  });
  addTool(server, log, {
    name: "withdraw_stake_allocation",
    description: "Withdraws an unlocked draft allocation; a locked one cannot be withdrawn (allocation_locked).",
    input: { model, window },
    run: (input) => service.withdrawStakeAllocation(key, input),
  });
  addTool(server, log, {
    name: "get_final_selection",
    description: "Your final-window selection; applicable: false on an event whose sealed rounds are its boards (no final window).",
    input: {},
    readOnly: true,
    run: () => service.getFinalSelection(key),
  });
  addTool(server, log, {
    name: "set_final_selection",
    description:
      "Replaces your final-window selection (up to max_selections models; [] clears it) until the first final round opens; " +
      "afterwards 409 selection_window_closed.",
    input: { models: z.array(model).describe("The models to enter on the final board") },
    run: ({ models }) => service.setFinalSelection(key, models),
  });
  addTool(server, log, {
    name: "get_final_board",
    description: "The held-out final board: selected models only, scored over the final rounds; sealed until the event is done.",
    input: {},
    readOnly: true,
    run: () => service.finalBoard(key),
  });
}
