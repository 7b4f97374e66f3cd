import { csvRecords } from "./csv-records.js";
import type { Frame } from "../domain/frame.js";

/**
 * Frames as CSV text: a header row, then one row per record with `id` and `exped` as text and
 * every other column as a number (empty, `NaN` or `nan` = missing). Fields may be quoted the
 * RFC 4180 way (`csvRecords`; an unclosed quote is an error naming its line). Rows in error
 * messages are counted from 1 after the header.
 */
const MISSING_TEXT = new Set(["", "NaN", "nan"]);

/** Parses CSV into a Frame; with `columns`, only those numeric columns are read (each must exist). */
export function readFrameCsv(text: string, opts: { columns?: string[] } = {}): Frame {
  const records = [...csvRecords(text)];
  const header = records.shift();
  if (!header) throw new Error("CSV file is empty");
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`missing column '${name}'`);
    return i;
  };
  const idAt = at("id");
  const expedAt = at("exped");
  const names = opts.columns ?? header.filter((h) => h !== "id" && h !== "exped");
  const positions = names.map(at);
  const n = records.length;
  const ids = new Array<string>(n);
  const exped = new Array<string>(n);
  const columns = names.map(() => new Float64Array(n));
  for (let r = 0; r < n; r++) {
    const fields = records[r];
    if (fields.length !== header.length) throw new Error(`row ${r + 1}: expected ${header.length} fields, found ${fields.length}`);
    ids[r] = fields[idAt];
    exped[r] = fields[expedAt];
    positions.forEach((p, c) => (columns[c][r] = parseNumber(fields[p], r, names[c])));
  }
  return { ids, exped, columns: Object.fromEntries(names.map((name, c) => [name, columns[c]])) };
}

/** Writes a Frame as CSV; numbers round-trip exactly (shortest representation), NaN as an empty field. */
export function writeFrameCsv(frame: Frame): string {
  const names = Object.keys(frame.columns);
  const lines = [["id", "exped", ...names].map(quote).join(",")];
  for (let r = 0; r < frame.ids.length; r++) {
    const values = names.map((name) => {
      const v = frame.columns[name][r];
      return Number.isNaN(v) ? "" : Object.is(v, -0) ? "-0" : String(v);
    });
    lines.push([quote(frame.ids[r]), quote(frame.exped[r]), ...values].join(","));
  }
  return lines.join("\n") + "\n";
}

function parseNumber(raw: string, row: number, column: string): number {
  if (MISSING_TEXT.has(raw)) return NaN;
  const v = Number(raw);
  if (Number.isNaN(v) || raw.trim() === "") throw new Error(`row ${row + 1}: column '${column}': '${raw}' is not a number`);
  return v;
}

function quote(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}
