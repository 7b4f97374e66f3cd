import { DataType } from "apache-arrow";
import type { Frame, NumericColumn } from "../domain/frame.js";
import { inFile, type ColumnValues, type ParquetFile } from "./parquet-file.js";
import { MAX_EXPED } from "./schema.js";

/**
 * Frames from files in the service's layout, as pandas writes them: the `id` index, the exped
 * label in a column `exped` (or `era`, as older files call it), numeric columns of any int or
 * float width.
 */
export const EXPED_COLUMNS = ["exped", "era"] as const;

/** The file's exped label column: `exped`, else `era`. */
export function expedColumnOf(file: ParquetFile): string {
  const name = EXPED_COLUMNS.find((c) => file.fields.has(c));
  if (!name) throw new Error(`${file.path}: no column 'exped' (or 'era')`);
  return name;
}

/** Checks that each of `names` is an int or float column of `file` before anything is decoded. */
export function requireNumeric(file: ParquetFile, names: string[]): void {
  for (const name of names) {
    const type = file.fields.get(name);
    if (!type) throw new Error(`${file.path}: no column '${name}'`);
    if (!DataType.isInt(type) && !DataType.isFloat(type)) {
      throw new Error(`${file.path}: column '${name}' has type ${type}, expected an int or float column`);
    }
  }
}

/** `file`'s ids, exped labels and the numeric columns `numeric` (only those are decoded), each in its own type. */
export async function readDirFrame(file: ParquetFile, numeric: string[]): Promise<Frame> {
  requireNumeric(file, numeric);
  const expedColumn = expedColumnOf(file);
  const read = await file.read([...new Set([file.index, expedColumn, ...numeric])]);
  return inFile(file.path, () => {
    const ids = stringsOf(file.index, read.get(file.index) as ColumnValues);
    const exped = expedLabels(expedColumn, file.fields.get(expedColumn) as DataType, read.get(expedColumn) as ColumnValues);
    const columns: Record<string, NumericColumn> = {};
    for (const name of numeric) columns[name] = read.get(name) as NumericColumn;
    return { ids, exped, columns };
  });
}

function stringsOf(name: string, values: ColumnValues): string[] {
  if (!Array.isArray(values)) throw new Error(`column '${name}' holds numbers, expected strings`);
  return values;
}

/**
 * Exped labels as strings that sort in time order: a string column as it is, an integer column
 * zero-padded to four digits (`7` → `0007`), as the generator's labels are. Each distinct label
 * is one string, shared by its rows (a split has thousands of labels over millions of rows).
 */
function expedLabels(name: string, type: DataType, values: ColumnValues): string[] {
  if (Array.isArray(values)) return shared(values);
  if (!DataType.isInt(type)) throw new Error(`column '${name}' has type ${type}, expected strings or integers`);
  return shared(
    Array.from(values, (n, row) => {
      if (!(Number.isInteger(n) && n >= 0 && n <= MAX_EXPED)) {
        throw new Error(`column '${name}' has ${n} at row ${row}, expected an integer from 0 to ${MAX_EXPED}`);
      }
      return String(n).padStart(4, "0");
    }),
  );
}

/** `labels` with each repeated label replaced, in place, by its first occurrence's string. */
function shared(labels: string[]): string[] {
  const first = new Map<string, string>();
  for (let i = 0; i < labels.length; i++) {
    const label = first.get(labels[i]);
    if (label === undefined) first.set(labels[i], labels[i]);
    else labels[i] = label;
  }
  return labels;
}
