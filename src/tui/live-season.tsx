/** The live view wired to a replay: folds its updates, fits the terminal, and takes the keys. */
import { useEffect, useReducer } from "react";
import type { SeasonFeed } from "./season-feed.js";
import { reduceSeason, startSeason } from "./season-state.js";
import { SeasonView } from "./season-view.js";
import { type ReplayKeysTarget, useReplayKeys } from "./use-replay-keys.js";
import { useTerminalSize } from "./use-terminal-size.js";

export interface LiveSeasonProps {
  scenario: string;
  seed: string | number;
  /** Rounds in the season, shown before the first progress update. */
  rounds: number;
  feed: SeasonFeed;
  control: ReplayKeysTarget;
}

export function LiveSeason({ scenario, seed, rounds, feed, control }: LiveSeasonProps) {
  const [state, dispatch] = useReducer(reduceSeason, rounds, startSeason);
  useEffect(() => feed.subscribe(dispatch), [feed]);
  const status = useReplayKeys(control, state.digest === null);
  return <SeasonView scenario={scenario} seed={seed} {...state} size={useTerminalSize()} status={status} />;
}
