import { z } from "zod";

/** Faults that strike one round. */
export const roundFaultNames = ["missing_benchmark", "empty_live", "balance_unavailable", "chain_rpc_unavailable"] as const;
/** Faults that strike the whole deployment (they take no round). */
export const deploymentFaultNames = ["diagnostics_maintenance", "compute_paused"] as const;
/** Every fault an organiser can inject. */
export const faultNames = [...roundFaultNames, ...deploymentFaultNames] as const;

export type RoundFaultName = (typeof roundFaultNames)[number];
export type DeploymentFaultName = (typeof deploymentFaultNames)[number];
export type FaultName = (typeof faultNames)[number];

const rounds = z.array(z.int().min(1));

/**
 * The faults in force: they start as the scenario sets them and an organiser toggles them live. The
 * optional ones are absent until set, so deployments that never use them are unchanged.
 */
export const faultsSchema = z
  .strictObject({
    /** Rounds (1-based) whose live benchmark file lacks `v1_designated`: they never settle. */
    missing_benchmark_rounds: rounds.default([]),
    /** Rounds (1-based) whose live split is served empty: 503 `Live dataset is empty`. */
    empty_live_rounds: rounds.default([]),
    /** Event rounds (1-based) during which the event deposit balance cannot be read: drafts answer 503. */
    balance_unavailable_rounds: rounds.optional(),
    /** Rounds (1-based) whose staking chain is unreachable: stakes on them get 503 `Chain RPC unavailable`. */
    chain_rpc_unavailable_rounds: rounds.optional(),
    /** The practice board is under maintenance (whatever the round): its uploads answer 503. */
    diagnostics_maintenance: z.boolean().optional(),
    /** Hosted compute is paused by an administrator: training launches answer 503. */
    compute_paused: z.boolean().optional(),
  })
  .default({ missing_benchmark_rounds: [], empty_live_rounds: [] });

export type Faults = z.output<typeof faultsSchema>;
