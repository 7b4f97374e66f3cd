/** The standings the views show, exactly as the scoring engine gives them. */
export type { Board, StandingRow } from "../scoring/standings.js";
