import { z } from "zod";
import { operation } from "./operation.js";

const writeRefusals =
  "403: Event staking is only available to event participants. | Your enrollment does not carry the event-staking capability. | " +
  "E-mail not verified | This event has no staking configured. 409: not armed | deadline passed | stake_window_closed | " +
  "window_mismatch | allocation_locked";

const model = z.string().min(1).describe("Your model's returned name (participant_…) or id (mdl_…)");
const window = z.string().min(1).optional().describe("A guard: must name the window being drafted (round_N, the open round)");

/** Event staking: the caller's block, drafting and withdrawing allocations. */
export const eventStakingOperations = {
  eventStaking: operation({
    scope: "key",
    rate: "get_event_staking",
    rest: [
      {
        method: "GET",
        path: "/api/v1/event/staking",
        operationId: "get_event_staking",
        summary: "The caller's event staking: terms, draft window, deposit (integer micro-USDC) and per-round allocations and settlements",
        responses: { 200: "EventStakingView (money_event false when no staking is configured)", 403: "Event staking is only available to event participants." },
      },
    ],
    mcp: [
      {
        name: "get_event_staking",
        description:
          "Your event staking: money_event, staking_armed, phase, stake_window_open, draft_window, max_slots, min_stake_micro, " +
          "principal/settled/net/locked/spendable in integer micro-USDC (null with balance_unavailable when the deposit cannot be read), " +
          "and per round window its stake_return_amplitude, payout_factor, allocations and settlements.",
        input: {},
        readOnly: true,
      },
    ],
  }),
  setStakeAllocation: operation({
    scope: "key",
    rate: "set_stake_allocation",
    rest: [
      {
        method: "POST",
        path: "/api/v1/event/staking/allocations",
        operationId: "set_stake_allocation",
        summary: "Drafts (or redrafts) a stake on one of your models for the open round; drafts lock as the round closes",
        body: "StakeAllocationBody",
        responses: {
          200: "The draft {model_id, model, window, amount_micro, status, drafted_at, locked_at, spendable_micro}",
          400: "The minimum stake on a model is {amount}.",
          403: writeRefusals,
          409: "slot_limit | insufficient_balance | and the 409s above",
          422: "Model '{model_id}' has no submission for {window}. | amount_usdc schema errors",
          503: "Could not read your event deposit balance. Try again.",
        },
      },
    ],
    mcp: [
      {
        name: "set_stake_allocation",
        description:
          "Drafts (or redrafts) a stake on one of your models for the open round, after the model has submitted in it. amount_usdc is " +
          "a decimal string (\"2.5\", at most 6 decimals). Drafts lock as the round closes and settle as the next round opens: " +
          "payout = stake · A·tanh(payout_factor·score/A).",
        input: { model, amount_usdc: z.string().describe("USDC as a decimal string, e.g. \"2.5\""), window },
      },
    ],
  }),
  withdrawStakeAllocation: operation({
    scope: "key",
    rate: "withdraw_stake_allocation",
    rest: [
      {
        method: "POST",
        path: "/api/v1/event/staking/withdraw",
        operationId: "withdraw_stake_allocation",
        summary: "Withdraws an unlocked draft; a locked allocation cannot be withdrawn",
        body: "StakeWithdrawBody",
        responses: { 200: "{model_id, window, withdrawn_micro}", 403: writeRefusals, 404: "No draft allocation for model '{model}' in {window}." },
      },
    ],
    mcp: [
      {
        name: "withdraw_stake_allocation",
        description: "Withdraws an unlocked draft allocation; a locked one cannot be withdrawn (allocation_locked).",
        input: { model, window },
      },
    ],
  }),
};

/** The final selection and the held-out final board (events with a final window). */
export const finalWindowOperations = {
  getFinalSelection: operation({
    scope: "key",
    rate: "get_final_selection",
    rest: [
      {
        method: "GET",
        path: "/api/v1/event/final/selection",
        operationId: "get_final_selection",
        summary: "Your final-window selection; applicable: false on an event without a final window",
        responses: { 200: "{applicable, rounds, max_selections, selection_open, selection_closes_at, selected}" },
      },
    ],
    mcp: [
      {
        name: "get_final_selection",
        description: "Your final-window selection; applicable: false on an event whose sealed rounds are its boards (no final window).",
        input: {},
        readOnly: true,
      },
    ],
  }),
  setFinalSelection: operation({
    scope: "key",
    rate: "set_final_selection",
    rest: [
      {
        method: "POST",
        path: "/api/v1/event/final/selection",
        operationId: "set_final_selection",
        summary: "Replaces your final-window selection while the selection window is open (until the first final round opens)",
        body: "FinalSelectionBody",
        bodyFields: ["models"],
        responses: {
          200: "The selection as get_final_selection shows it",
          400: "At most {max_selections} models can be selected ({n} given). | Model '{model}' is selected more than once.",
          409: "The final selection window closed at {closed_at}; the selection made before then stands. | This event has no final window: its sealed rounds are its boards.",
        },
      },
    ],
    mcp: [
      {
        name: "set_final_selection",
        description:
          "Replaces your final-window selection (up to max_selections models; [] clears it) until the first final round opens; " +
          "afterwards 409 selection_window_closed.",
        input: { models: z.array(model).describe("The models to enter on the final board") },
      },
    ],
  }),
  finalBoard: operation({
    scope: "reader",
    rate: "final_board",
    rest: [
      {
        method: "GET",
        path: "/api/v1/event/final/board",
        operationId: "get_final_board",
        summary: "The held-out final board: selected models only, over the final rounds; sealed until the event is done",
        responses: { 200: "Board + {window: final, rounds, sealed, unseals_at}", 404: "Not found: final board (this event has no final window)" },
      },
    ],
    mcp: [
      {
        name: "get_final_board",
        description: "The held-out final board: selected models only, scored over the final rounds; sealed until the event is done.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
