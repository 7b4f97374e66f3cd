import type { OperationName } from "../../contract/index.js";
import type { Handler } from "./call.js";
import { computeHandlers } from "./compute.js";
import { eventHandlers } from "./event.js";
import { modelHandlers } from "./models.js";
import { organiserHandlers } from "./organiser.js";
import { roundHandlers } from "./rounds.js";
import { stakingHandlers } from "./staking.js";
import { statusHandlers } from "./status.js";

/**
 * Every operation's handler, by the contract's name: the compiler holds the two lists equal (moving
 * the clock is the service's own method, for it walks the clock's appointments).
 */
export const handlers = {
  ...statusHandlers,
  ...roundHandlers,
  ...modelHandlers,
  ...stakingHandlers,
  ...eventHandlers,
  ...computeHandlers,
  ...organiserHandlers,
} satisfies Record<Exclude<OperationName, "advanceClock">, Handler>;

export type Handlers = typeof handlers;
