import { operation } from "./operation.js";

const clockHeld = "Only a realtime clock can be paused or resumed; a manual clock moves only when advanced.";

/** The organiser's control API: the clock, the live scoring settings, the boards and money, injected faults. */
export const simOperations = {
  clock: operation({
    scope: "organiser",
    rest: [
      {
        method: "GET",
        path: "/sim/v1/clock",
        operationId: "sim_clock",
        summary: "The served clock: {now, mode, speed, cadence}",
        responses: { 200: "{now, mode, speed, cadence}" },
      },
    ],
  }),
  advanceClock: operation({
    scope: "organiser",
    rest: [
      {
        method: "POST",
        path: "/sim/v1/clock/advance",
        operationId: "sim_clock_advance",
        summary: "Moves the clock forward ({seconds} | {to: 'next_phase'} | {until}) and applies the round transitions due",
        body: "ClockAdvanceBody",
        responses: {
          200: "{now, cadence, transitions: [{kind, exped, t}]}",
          422: "The clock never moves backwards: {until} is before now ({now}). | no next phase | schema errors",
        },
      },
    ],
  }),
  holdClock: operation({
    scope: "organiser",
    rest: [
      {
        method: "POST",
        path: "/sim/v1/clock/pause",
        operationId: "sim_clock_pause",
        summary: "Holds a realtime clock still (the cadence then shows clock_paused: true); advances still move it",
        fixed: [true],
        responses: { 200: "{now, mode, speed, paused: true, cadence}", 409: clockHeld },
      },
      {
        method: "POST",
        path: "/sim/v1/clock/resume",
        operationId: "sim_clock_resume",
        summary: "Lets a paused realtime clock run on from where it stood",
        fixed: [false],
        responses: { 200: "{now, mode, speed, paused: false, cadence}", 409: clockHeld },
      },
    ],
  }),
  changeScoring: operation({
    scope: "organiser",
    rest: [
      {
        method: "POST",
        path: "/sim/v1/scoring",
        operationId: "sim_change_scoring",
        summary: "Changes the live scoring settings (partial); rounds settled later use them",
        body: "ScoringChangeBody",
        responses: { 200: "The new settings {weights, clip, aggregate}" },
      },
    ],
  }),
  stakeBalances: operation({
    scope: "organiser",
    rest: [
      {
        method: "GET",
        path: "/sim/v1/stakes",
        operationId: "sim_stake_balances",
        summary: "Every staking agent's money: event deposits (the final one decides a money event) or tournament stake earnings",
        responses: {
          200: "{product: event|tournament, rank_metric: net_micro|settled_micro, rows: [{rank, agent, net_micro, settled_micro, locked_micro}]} or null when nobody stakes",
        },
      },
    ],
  }),
  boards: operation({
    scope: "organiser",
    rest: [
      {
        method: "GET",
        path: "/sim/v1/boards",
        operationId: "sim_boards",
        summary: "The boards as participants read them: the standings, the newest opened rounds' boards, an event's practice board",
        responses: { 200: "{standings: Board, rounds: [Board + exped | window], practice: Board | null}" },
      },
    ],
  }),
  currentFaults: operation({
    scope: "organiser",
    rest: [
      {
        method: "GET",
        path: "/sim/v1/faults",
        operationId: "sim_faults",
        summary: "The faults in force now",
        responses: { 200: "The faults {missing_benchmark_rounds, empty_live_rounds, … (the optional ones once set)}" },
      },
    ],
  }),
  toggleFault: operation({
    scope: "organiser",
    rest: [
      {
        method: "POST",
        path: "/sim/v1/faults",
        operationId: "sim_toggle_fault",
        summary:
          "Turns a fault on or off for one round: missing_benchmark withholds its live v1_designated (it will not settle); empty_live serves its live split empty (503); balance_unavailable makes event deposit reads fail while that round is open (503)",
        body: "FaultBody",
        bodyFields: ["fault", "round", "on"],
        responses: { 200: "The faults now {missing_benchmark_rounds, empty_live_rounds, chain_rpc_unavailable_rounds (once set)}" },
      },
    ],
  }),
};
