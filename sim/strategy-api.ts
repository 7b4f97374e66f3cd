/**
 * The public entry point for strategies written in TypeScript or JavaScript: the `Strategy`
 * interface every built-in implements, and the helpers the built-ins use. A module whose default
 * export implements `Strategy` can be named by path in a scenario or given to `basecamp backtest`.
 */
export type { AgentContext, Predict, RoundSlot, Strategy } from "./agents/strategy.js";
export { StrategyFailure } from "./agents/strategy.js";
export { submitRound } from "./agents/submit-round.js";
export { duringWindow, withinSlot } from "./agents/timing.js";
export { uniformRanks } from "../src/data/ranks.js";
export type { Frame } from "../src/domain/frame.js";
export type { Client } from "../src/service/client.js";
export type { Rng } from "../src/domain/rng.js";
export { z } from "zod";
