/**
 * How many rows each end of a top/bottom score takes in an exped of `rows` rows: `setting` ≥ 1 is
 * that many rows; a fraction in (0, 0.5] is `max(1, floor(fraction · rows))` (0.2 of a 92-row
 * exped is 18 top and 18 bottom, numerblox's TB200 on a ~5000-row era is 0.04).
 *
 * @example topBottomCount(0.2, 92) // 18
 */
export function topBottomCount(setting: number, rows: number): number {
  if (!(setting > 0) || (setting > 0.5 && (setting < 1 || !Number.isInteger(setting)))) {
    throw new Error(`top/bottom ${setting} is neither a fraction in (0, 0.5] nor a whole number of rows ≥ 1`);
  }
  return setting >= 1 ? setting : Math.max(1, Math.floor(setting * rows));
}
