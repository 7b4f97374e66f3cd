import { explainScoring, getStarted, whoami } from "../overview/status.js";
import type { Call } from "./call.js";

/** Orientation reads. */
export const statusHandlers = {
  getStarted: (c: Call) => getStarted(c.ctx, c.principal),
  /** Never refuses: a bad or missing key answers `authenticated: false`. */
  whoami: (c: Call) => whoami((k) => c.authenticate(k), c.key),
  explainScoring: (c: Call) => explainScoring(c.ctx),
};
