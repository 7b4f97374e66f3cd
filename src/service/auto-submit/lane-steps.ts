import type { ServiceContext } from "../kernel/context.js";
import { applyAutoRun, dueAutoRunSteps, type AutoRunStep } from "./auto-runs.js";
import { applyValidationStep, dueValidationSteps, type ValidationStep } from "./validation.js";

/** A step of the auto-submit lane due at `t`: a model file's validation, or a round's auto-run. */
export type LaneStep = ValidationStep | AutoRunStep;

/** Same-instant lane steps: files move to validating, then get their verdict, then rounds run (a file validated at that instant runs). */
const laneOrder = { validating: 0, validate: 1, auto_run: 2 } as const;

export function dueLaneSteps(ctx: ServiceContext, now: number): LaneStep[] {
  return [...dueValidationSteps(ctx, now), ...dueAutoRunSteps(ctx, now)].sort((a, b) => a.t - b.t || laneOrder[a.lane] - laneOrder[b.lane]);
}

export function applyLaneStep(ctx: ServiceContext, step: LaneStep): Promise<void> {
  return step.lane === "auto_run" ? applyAutoRun(ctx, step) : applyValidationStep(ctx, step);
}
