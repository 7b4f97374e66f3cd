import { parseScenario, type Scenario } from "../../sim/scenario.js";

/** A scenario small enough to replay in well under a second: 3 rounds, 6 agents, tiny splits. */
export function smallScenario(overrides: Record<string, unknown> = {}): Scenario {
  return parseScenario({
    name: "small",
    seed: 7,
    dataset: {
      n_features: 12,
      n_core: 4,
      train_expeds: 12,
      validation_expeds: 4,
      rows_per_exped: 60,
      gap_expeds: 2,
      universe_size: 40,
    },
    calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1 },
    agents: [
      { name: "alice", key: "key-alice-0001", strategy: "ridge" },
      { name: "bob", key: "key-bob-00000002", strategy: "benchmark_copier" },
      { name: "carol", key: "key-carol-000003", strategy: "random" },
      { name: "dave", key: "key-dave-0000004", strategy: "noisy_oracle", params: { noise: 1 } },
      { name: "erin", key: "key-erin-0000005", strategy: "skipper", params: { skip_probability: 0.5 } },
      { name: "frank", key: "key-frank-000006", strategy: "late", params: { spread_minutes: 30 } },
      { name: "eve", key: "key-eve-00000007", scope: "event", strategy: "random" },
    ],
    ...overrides,
  });
}
