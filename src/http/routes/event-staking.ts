import { route } from "../route.js";

const writeRefusals =
  "403: Event staking is only available to event participants. | Your enrollment does not carry the event-staking capability. | " +
  "E-mail not verified | This event has no staking configured. 409: not armed | deadline passed | stake_window_closed | " +
  "window_mismatch | allocation_locked";

/** Event staking: the caller's block, drafting and withdrawing allocations. */
export const eventStakingRoutes = [
  route({
    method: "GET",
    path: "/api/v1/event/staking",
    operationId: "get_event_staking",
    summary: "The caller's event staking: terms, draft window, deposit (integer micro-USDC) and per-round allocations and settlements",
    key: "required",
    responses: { 200: "EventStakingView (money_event false when no staking is configured)", 403: "Event staking is only available to event participants." },
    handle: async ({ c, service, key }) => c.json(await service.eventStaking(key)),
  }),
  route({
    method: "POST",
    path: "/api/v1/event/staking/allocations",
    operationId: "set_stake_allocation",
    summary: "Drafts (or redrafts) a stake on one of your models for the open round; drafts lock as the round closes",
    key: "required",
    body: "StakeAllocationBody",
    responses: {
      200: "The draft {model_id, model, window, amount_micro, status, drafted_at, locked_at, spendable_micro}",
      400: "The minimum stake on a model is {amount}.",
      403: writeRefusals,
      409: "slot_limit | insufficient_balance | and the 409s above",
      422: "Model '{model_id}' has no submission for {window}. | amount_usdc schema errors",
      503: "Could not read your event deposit balance. Try again.",
    },
    handle: async ({ c, service, key, body }) => c.json(await service.setStakeAllocation(key, body)),
  }),
  route({
    method: "POST",
    path: "/api/v1/event/staking/withdraw",
    operationId: "withdraw_stake_allocation",
    summary: "Withdraws an unlocked draft; a locked allocation cannot be withdrawn",
    key: "required",
    body: "StakeWithdrawBody",
    responses: { 200: "{model_id, window, withdrawn_micro}", 403: writeRefusals, 404: "No draft allocation for model '{model}' in {window}." },
    handle: async ({ c, service, key, body }) => c.json(await service.withdrawStakeAllocation(key, body)),
  }),
];

/** The final selection and the held-out final board (events with a final window). */
export const finalWindowRoutes = [
  route({
    method: "GET",
    path: "/api/v1/event/final/selection",
    operationId: "get_final_selection",
    summary: "Your final-window selection; applicable: false on an event without a final window",
    key: "required",
    responses: { 200: "{applicable, rounds, max_selections, selection_open, selection_closes_at, selected}" },
    handle: async ({ c, service, key }) => c.json(await service.getFinalSelection(key)),
  }),
  route({
    method: "POST",
    path: "/api/v1/event/final/selection",
    operationId: "set_final_selection",
    summary: "Replaces your final-window selection while the selection window is open (until the first final round opens)",
    key: "required",
    body: "FinalSelectionBody",
    responses: {
      200: "The selection as get_final_selection shows it",
      400: "At most {max_selections} models can be selected ({n} given). | Model '{model}' is selected more than once.",
      409: "The final selection window closed at {closed_at}; the selection made before then stands. | This event has no final window: its sealed rounds are its boards.",
    },
    handle: async ({ c, service, key, body }) => c.json(await service.setFinalSelection(key, body.models)),
  }),
  route({
    method: "GET",
    path: "/api/v1/event/final/board",
    operationId: "get_final_board",
    summary: "The held-out final board: selected models only, over the final rounds; sealed until the event is done",
    key: "required",
    responses: { 200: "Board + {window: final, rounds, sealed, unseals_at}", 404: "Not found: final board (this event has no final window)" },
    handle: async ({ c, service, key }) => c.json(await service.finalBoard(key)),
  }),
];
