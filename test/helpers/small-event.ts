import { parseScenario, type Scenario } from "../../sim/scenario.js";

/** A small event: 10 min build, 3 rounds of 10 min with 2 min boundaries, a pool of 4, 60 s scoring. */
export function smallEvent(overrides: Record<string, unknown> = {}, event: Record<string, unknown> = {}): Scenario {
  return parseScenario({
    name: "small-event",
    seed: 11,
    kind: "event",
    dataset: { n_features: 10, n_core: 4, train_expeds: 10, validation_expeds: 4, rows_per_exped: 40, gap_expeds: 2, universe_size: 30 },
    event: {
      start: "2026-09-23T13:00:00Z",
      build_phase_minutes: 10,
      n_rounds: 3,
      round_minutes: 10,
      boundary_minutes: 2,
      expeds_per_round: 2,
      upload_pool: 4,
      scoring_seconds: 60,
      entry_limit: 1,
      ...event,
    },
    agents: [
      { name: "ann", key: "key-ann-00000001", scope: "event", strategy: "event_ridge" },
      { name: "ben", key: "key-ben-00000002", scope: "event", strategy: "event_ridge" },
      { name: "pia", key: "key-pia-00000003", scope: "practice", strategy: "event_ridge" },
      { name: "tom", key: "key-tom-00000004", scope: "tournament", strategy: "event_ridge" },
    ],
    ...overrides,
  });
}
