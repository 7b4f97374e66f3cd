import { DataType } from "apache-arrow";
import { readNumbers, readStrings } from "./arrow-columns.js";
import type { Frame } from "./frame.js";
import { inFile, type ParquetFile } from "./parquet-file.js";
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

/** `file`'s ids, exped labels and the numeric columns `numeric` (only those are decoded). */
export function readDirFrame(file: ParquetFile, numeric: string[]): Frame {
  requireNumeric(file, numeric);
  const expedColumn = expedColumnOf(file);
  const table = file.read([file.index, expedColumn, ...numeric]);
  return inFile(file.path, () => {
    const column = (name: string) => table.getChild(name) as NonNullable<ReturnType<typeof table.getChild>>;
    const ids = readStrings(file.index, column(file.index));
    const exped = expedLabels(expedColumn, column(expedColumn));
    const columns: Record<string, Float64Array> = {};
    for (const name of numeric) columns[name] = readNumbers(name, column(name));
    return { ids, exped, columns };
  });
}

/**
 * Exped labels as strings that sort in time order: a string column as it is, an integer column
 * zero-padded to four digits (`7` → `0007`), as the generator's labels are.
 */
function expedLabels(name: string, vector: Parameters<typeof readStrings>[1]): string[] {
  const type = vector.type;
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type) || DataType.isDictionary(type)) return readStrings(name, vector);
  if (!DataType.isInt(type)) throw new Error(`column '${name}' has type ${type}, expected strings or integers`);
  return Array.from(readNumbers(name, vector), (n, row) => {
    if (!(Number.isInteger(n) && n >= 0 && n <= MAX_EXPED)) {
      throw new Error(`column '${name}' has ${n} at row ${row}, expected an integer from 0 to ${MAX_EXPED}`);
    }
    return String(n).padStart(4, "0");
  });
}
