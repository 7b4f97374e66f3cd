import type { Deployment } from "../src/service/kernel/deployment.js";
import type { Scenario } from "./scenario.js";

/** The service's view of a scenario: everything but the strategies. */
export function deploymentOf(s: Scenario): Deployment {
  return {
    seed: s.seed,
    kind: s.kind,
    calendar: s.calendar,
    event: s.event,
    dataset: s.dataset,
    scoring: s.scoring,
    organiser_key: s.organiser_key,
    faults: s.faults,
    rate_limit: s.rate_limit,
    gate: s.gate,
    agents: s.agents.map(({ name, key, scope, email_confirmed, blocked, event_staking, wallet }) => ({
      name,
      key,
      scope,
      email_confirmed,
      blocked,
      event_staking,
      wallet,
    })),
    staking: s.staking,
    auto_submit: s.auto_submit,
  };
}
