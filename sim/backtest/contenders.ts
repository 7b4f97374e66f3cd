import type { Scenario, ScenarioAgent } from "../scenario.js";
import { strategyFileKind, strategyFileLabel } from "../agents/strategy-file.js";

/** The designated benchmark's contender: it submits the live v1_designated column as is (its AIMC is exactly 0). */
export const DESIGNATED_CONTENDER = "v1_designated";
/** The built-in strategy it plays. */
const BENCHMARK_COPIER = "benchmark_copier";

/**
 * The walk's agents: the strategy under test, then v1_designated, then each `--against` strategy,
 * each named as its report entry will be (a file strategy by its file name, a built-in by its
 * name), made unique and fit for a model name. `timeouts` (seconds) apply to every Python and
 * model-file contender's calls.
 */
export function contenders(
  strategy: string,
  params: Record<string, unknown>,
  against: string[],
  timeouts: Pick<ScenarioAgent, "fit_timeout_seconds" | "predict_timeout_seconds"> = {},
): ScenarioAgent[] {
  const taken = new Set<string>();
  const agent = (spec: string, p: Record<string, unknown>, name: string, i: number): ScenarioAgent => {
    let unique = modelName(name);
    for (let k = 2; taken.has(unique); k++) unique = `${modelName(name)}-${k}`;
    taken.add(unique);
    return { name: unique, key: `backtest-key-${String(i).padStart(4, "0")}`, scope: "tournament", email_confirmed: true, blocked: false, event_staking: false, strategy: spec, params: p, ...timeouts };
  };
  const label = (spec: string) => (strategyFileKind(spec) === null ? spec : strategyFileLabel(spec));
  return [
    agent(strategy, params, label(strategy), 0),
    agent(BENCHMARK_COPIER, {}, DESIGNATED_CONTENDER, 1),
    ...against.map((spec, i) => agent(spec, {}, label(spec), i + 2)),
  ];
}

/** Lower case, letters, digits, `_` and `-`, starting with a letter: what a scenario's agent name may be. */
function modelName(label: string): string {
  const name = label.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
  return /^[a-z]/.test(name) ? name : `m-${name}`;
}

/** The walk's scenario: the base scenario's seed and scoring, the walk's calendar, the contenders, no actions or faults. */
export function walkScenario(base: Scenario, calendar: NonNullable<Scenario["calendar"]>, agents: ScenarioAgent[]): Scenario {
  return {
    ...base,
    kind: "tournament",
    calendar,
    event: undefined,
    actions: [],
    faults: { missing_benchmark_rounds: [], empty_live_rounds: [] },
    staking: undefined,
    auto_submit: undefined,
    agents,
  };
}

/** Whether a contender may fit on the train split: every strategy but a model file, a predictions file and the benchmark copier (v1_designated's). */
export function fitsOnTrain(strategy: string): boolean {
  const kind = strategyFileKind(strategy);
  return kind !== "pickle" && kind !== "predictions" && strategy !== BENCHMARK_COPIER;
}
