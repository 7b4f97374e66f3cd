import { route } from "../route.js";

/** The organiser's control API: the clock, the live scoring settings, injected faults. */
export const simRoutes = [
  route({
    method: "GET",
    path: "/sim/v1/clock",
    operationId: "sim_clock",
    summary: "The served clock: {now, mode, speed, cadence}",
    key: "organiser",
    responses: { 200: "{now, mode, speed, cadence}" },
    handle: async ({ c, service, key }) => c.json(await service.clock(key)),
  }),
  route({
    method: "POST",
    path: "/sim/v1/clock/advance",
    operationId: "sim_clock_advance",
    summary: "Moves the clock forward ({seconds} | {to: 'next_phase'} | {until}) and applies the round transitions due",
    key: "organiser",
    body: "ClockAdvanceBody",
    responses: {
      200: "{now, cadence, transitions: [{kind, exped, t}]}",
      422: "The clock never moves backwards: {until} is before now ({now}). | no next phase | schema errors",
    },
    handle: async ({ c, service, key, body }) => c.json(await service.advanceClock(key, body)),
  }),
  route({
    method: "POST",
    path: "/sim/v1/scoring",
    operationId: "sim_change_scoring",
    summary: "Changes the live scoring settings (partial); rounds settled later use them",
    key: "organiser",
    body: "ScoringChangeBody",
    responses: { 200: "The new settings {weights, clip, aggregate}" },
    handle: async ({ c, service, key, body }) => c.json(await service.changeScoring(key, body)),
  }),
  route({
    method: "GET",
    path: "/sim/v1/stakes",
    operationId: "sim_stake_balances",
    summary: "Every staking agent's event deposit, ranked by net balance (on a money event the final balance decides the winner)",
    key: "organiser",
    responses: { 200: "{money_event, rank_metric: net_micro, rows: [{rank, agent, net_micro, settled_micro, locked_micro}]}" },
    handle: async ({ c, service, key }) => c.json(await service.stakeBalances(key)),
  }),
  route({
    method: "POST",
    path: "/sim/v1/faults",
    operationId: "sim_toggle_fault",
    summary:
      "Turns a fault on or off for one round: missing_benchmark withholds its live v1_designated (it will not settle); empty_live serves its live split empty (503); balance_unavailable makes event deposit reads fail while that round is open (503)",
    key: "organiser",
    body: "FaultBody",
    responses: { 200: "The faults now {missing_benchmark_rounds, empty_live_rounds, chain_rpc_unavailable_rounds (once set)}" },
    handle: async ({ c, service, key, body }) => c.json(await service.toggleFault(key, body.fault, body.round, body.on)),
  }),
];
