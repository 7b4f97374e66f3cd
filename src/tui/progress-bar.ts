/** A text progress bar: `[██████░░░░] 6/10`. */
export function progressBar(done: number, total: number, width = 20): string {
  const filled = total > 0 ? Math.round((Math.min(done, total) / total) * width) : 0;
  return `[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${done}/${total}`;
}
