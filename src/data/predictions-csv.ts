import { refuse } from "../domain/errors.js";
import { CsvCursor, CsvSyntaxError } from "./csv-records.js";

/**
 * The `id` and `prediction` columns of a CSV predictions file (other columns ignored), at most
 * `max_rows` of them. Rows are counted from 1 after the header. Numbers are decimal text; `nan`/`inf` spellings parse to
 * NaN/Infinity so the range check can name them; anything else non-numeric is refused here.
 */
export function readPredictionsCsv(bytes: Uint8Array, limits: { max_rows: number }): { ids: string[]; values: number[] } {
  const text = decodeUtf8(bytes);
  try {
    return readRecords(new CsvCursor(text), limits.max_rows);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw refuse("predictions_file_unreadable", { format: "CSV", reason: e.message });
    throw e;
  }
}

/** Stops at the row past `maxRows`: a file of more rows is refused before the rest is parsed. */
function readRecords(records: CsvCursor, maxRows: number): { ids: string[]; values: number[] } {
  const names = records.next();
  if (names === null) throw refuse("predictions_file_empty");
  const idAt = column(names, "id");
  const predictionAt = column(names, "prediction");
  const ids: string[] = [];
  const values: number[] = [];
  for (let fields = records.next(); fields !== null; fields = records.next()) {
    const row = ids.length + 1;
    if (row > maxRows) throw refuse("predictions_too_many_rows", { rows: `more than ${maxRows}`, limit: maxRows }, { extra: { limit: maxRows } });
    if (fields.length !== names.length) {
      const problem = `the row has ${fields.length} fields, the header ${names.length}`;
      throw refuse("predictions_value_malformed", { row, column: names[fields.length] ?? `(field ${names.length + 1})`, problem });
    }
    ids.push(fields[idAt]);
    values.push(parseValue(fields[predictionAt], row));
  }
  return { ids, values };
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NOT_FINITE = /^[+-]?(nan|inf|infinity)$/i;

function parseValue(raw: string, row: number): number {
  const text = raw.trim();
  if (DECIMAL.test(text)) return Number(text);
  if (NOT_FINITE.test(text)) return text.toLowerCase().includes("nan") ? NaN : text.startsWith("-") ? -Infinity : Infinity;
  const problem = text === "" ? "the value is empty" : `'${raw.slice(0, 40)}' is not a number`;
  throw refuse("predictions_value_malformed", { row, column: "prediction", problem });
}

function column(header: string[], name: string): number {
  const at = header.indexOf(name);
  if (at < 0) throw refuse("predictions_column_missing", { column: name });
  return at;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw refuse("predictions_file_unreadable", { format: "CSV", reason: "the text is not UTF-8" });
  }
}
