import type { FaultName } from "../src/contract/faults.js";
import type { Service } from "../src/service/service.js";
import type { ScoringSettingsRecord } from "../src/service/kernel/setup.js";
import type { Scenario } from "./scenario.js";

/** What an organiser can do mid-replay: the in-process service and the HTTP sim control both offer it. */
export interface OrganiserControls {
  changeScoring(change: Partial<ScoringSettingsRecord>): Promise<unknown>;
  toggleFault(fault: FaultName, round: number | undefined, on: boolean): Promise<unknown>;
}

/** The organiser's controls on an in-process service, with the scenario's organiser key. */
export function serviceControls(service: Service, key: string): OrganiserControls {
  return {
    changeScoring: (change) => service.changeScoring(key, change),
    toggleFault: (fault, round, on) => service.toggleFault(key, fault, round, on),
  };
}

/** Applies one scenario action and says what it did, for the run's log. */
export async function applyAction(action: Scenario["actions"][number], controls: OrganiserControls): Promise<string> {
  if ("set_scoring" in action) {
    await controls.changeScoring(action.set_scoring);
    return `${action.at} organiser changed scoring: ${JSON.stringify(action.set_scoring)}`;
  }
  const { fault, round, on } = action.set_fault;
  await controls.toggleFault(fault, round, on);
  return `${action.at} organiser turned ${fault}${round === undefined ? "" : ` (round ${round})`} ${on ? "on" : "off"}`;
}
