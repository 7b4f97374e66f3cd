import type { z } from "zod";
import type { Frame } from "../../src/domain/frame.js";
import type { Rng } from "../../src/domain/rng.js";
import type { Client } from "../../src/service/client.js";

/**
 * The round an agent acts in, as the engine's timeline knows it. Tournament slots are the rounds
 * (exped = the round's exped token); event slots are the build phase (index 0, exped "build") and
 * the rounds (exped = "round_N").
 */
export interface RoundSlot {
  exped: string;
  index: number;
  open_at: number;
  close_at: number;
}

/** What an agent gets when it acts: its client, its own random stream for this round, its model's name. */
export interface AgentContext {
  client: Client;
  rng: Rng;
  model: string;
  /** Notes for the run's log (what the agent chose to do, what it was refused). */
  log: (line: string) => void;
  /**
   * Sim-only privilege for oracle strategies: the open round's hidden target by instrument id.
   * No real agent has this; it exists to put a known-good entry on the board.
   */
  peekTarget?: () => Map<string, number>;
}

/** A predictor: values in [0, 1] for the rows of the live frame, in its row order. */
export type Predict = (ctx: AgentContext, live: Frame) => Promise<Float64Array | null>;

export interface Strategy<P = Record<string, unknown>> {
  name: string;
  /** The kind of deployment it plays. */
  kind: "tournament" | "event";
  summary: string;
  params: z.ZodType<P>;
  /** Wants the oracle's privilege. */
  oracle?: boolean;
  /** When in a round the agent acts (epoch ms); may fall after the window closes. */
  actAt(slot: RoundSlot, params: P, rng: Rng): number;
  /** One round's work: usually predict and submit. Refusals propagate as errors. */
  act(ctx: AgentContext, slot: RoundSlot, params: P): Promise<void>;
}

/** A strategy loaded from a file, with what it holds open for the replay (a Python worker) and how to end it. */
export interface Held<S> {
  strategy: S;
  close(): Promise<void>;
}

/**
 * A strategy's own code failed this round (a Python predict raised, hung, or answered something
 * that is not predictions): the agent misses the round, the reason goes to the log, the replay goes on.
 */
export class StrategyFailure extends Error {}
