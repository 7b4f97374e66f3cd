/**
 * `uploads_board` (lane, round_window, status) is read by no query since the boards seek each
 * model's latest scored run through `uploads_scored` (migration 013): every upload and every
 * status change of a run (two per run) still rewrote it, on the served event's serial path.
 */
export const sql = `DROP INDEX uploads_board;`;
