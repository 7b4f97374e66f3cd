import { currentStandings, roundBoard } from "./boards.js";
import type { ServiceContext } from "../kernel/context.js";
import { eventRoundBoard, practiceBoard } from "../event/event-boards.js";
import { schedule } from "../rounds/rounds.js";

/** Round boards the organiser's console shows: the newest opened rounds'. */
export const ROUND_BOARDS_SHOWN = 3;

/**
 * The boards as the participants read them, in one organiser read (the console has no agent key):
 * the standings, the newest opened rounds' boards (an event's sealed ones without rows, as served)
 * and, on an event, the practice board.
 */
export function organiserBoards(ctx: ServiceContext) {
  const now = ctx.clock.now();
  const opened = schedule(ctx).rounds.filter((r) => Date.parse(r.open_at) <= now).slice(-ROUND_BOARDS_SHOWN).reverse();
  const event = ctx.world.deployment.kind === "event";
  return {
    standings: currentStandings(ctx),
    rounds: opened.map((r) => (event ? eventRoundBoard(ctx, r.exped) : roundBoard(ctx, r.exped))),
    practice: event ? practiceBoard(ctx) : null,
  };
}
