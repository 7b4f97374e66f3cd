/** Plain-text layout for the terminal: aligned tables whose first column (a name) is cut to fit, wrapped lines, control characters made harmless. */

export type Align = "left" | "right";

/** Control characters (ANSI escapes, newlines) of a user's string replaced, so the text pipes cleanly and stays one line. */
export const printable = (s: string): string => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\uFFFD");

/** At most `width` characters; a cut string ends in "…". */
export function truncate(s: string, width: number): string {
  const chars = Array.from(s);
  return chars.length <= width ? s : chars.slice(0, Math.max(0, width - 1)).join("") + "…";
}

const SEP = "  ";
/** A name column never gets narrower than this, even when the other columns do not leave room for it. */
export const MIN_NAME = 8;

export const len = (s: string): number => Array.from(s).length;
export const pad = (s: string, w: number, align: Align): string =>
  align === "left" ? s + " ".repeat(Math.max(0, w - len(s))) : " ".repeat(Math.max(0, w - len(s))) + s;

const columnWidths = (rows: string[][]): number[] => rows[0].map((_, c) => Math.max(...rows.map((row) => len(printable(row[c])))));

/** How wide the first column may be for the table's lines to fit `width`. */
export function roomForFirst(rows: string[][], width: number): number {
  return width - columnWidths(rows).slice(1).reduce((a, w) => a + w + SEP.length, 0);
}

/** One line per row (the first row is the header), every column padded to its widest cell, the first cut at `firstWidth` (at least MIN_NAME). */
export function textTable(rows: string[][], align: Align[], firstWidth: number): string[] {
  const widths = columnWidths(rows);
  widths[0] = Math.min(widths[0], Math.max(MIN_NAME, firstWidth));
  return rows.map((row) => row.map((cell, c) => pad(truncate(printable(cell), widths[c]), widths[c], align[c])).join(SEP).trimEnd());
}

/** Words of `text` on lines at most `width` wide (a longer word gets a line of its own), every line after the first indented. */
export function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of printable(text).split(/\s+/).filter(Boolean)) {
    const lead = lines.length === 0 ? "" : indent;
    if (line !== "" && len(lead + line + " " + word) > width) {
      lines.push(lead + line);
      line = word;
    } else line = line === "" ? word : line + " " + word;
  }
  lines.push((lines.length === 0 ? "" : indent) + line);
  return lines;
}
