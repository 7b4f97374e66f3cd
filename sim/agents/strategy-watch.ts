/** A Python or model-file strategy's own code failing: what it was doing, why, and where its output went. */
export interface StrategyFault {
  /** The agent whose strategy failed. */
  agent: string;
  /** The call that failed: loading the file, fit(train), or one round's predict. */
  call: "load" | "fit" | "predict";
  /** The round it failed in (fit and predict). */
  exped?: string;
  /** The reason, one line (the worker's). */
  error: string;
  /** Python's traceback of the participant's own frames, when its code raised. */
  traceback?: string;
  /** The file its stdout and stderr went to, when there is one. */
  log?: string;
}

/** One line: which agent's which call failed, where, and why. */
export function faultLine(f: StrategyFault): string {
  return `${f.agent}: ${f.call}${f.exped ? ` (exped ${f.exped})` : ""} failed: ${f.error}`;
}

/**
 * What a face may watch of the Python strategies of a replay, as it happens (the backtest's
 * progress line and its failing fast). Display and control only: nothing here reaches the service.
 */
export interface StrategyWatch {
  /** An agent's fit(train) started. */
  fitting?(agent: string): void;
  /** An agent's fit(train) ended, well or not. */
  fitted?(agent: string): void;
  /** An agent's code failed; a failed load or fit ends its part in the replay. */
  failed?(fault: StrategyFault): void;
}
