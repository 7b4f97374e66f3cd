import type { NumericColumn } from "../domain/frame.js";

/**
 * The `pandas` key of a parquet file's schema metadata, in the shape pyarrow writes it, so that
 * `pd.read_parquet` restores the row key as the frame's index (named `id`) instead of a column.
 */
export interface PandasColumn {
  name: string;
  field_name: string;
  pandas_type: string;
  numpy_type: string;
  metadata: null;
}

export interface PandasMetadata {
  index_columns: string[];
  column_indexes: { name: null; field_name: null; pandas_type: "unicode"; numpy_type: "object"; metadata: { encoding: "UTF-8" } }[];
  columns: PandasColumn[];
  creator: { library: string; version: string };
  pandas_version: string;
}

/**
 * Metadata for a file laid out as `index` (string), then the string columns, then the numeric
 * columns: each a name (float64) or a name and its numpy dtype (`int8`, `float32`, ...).
 */
export function pandasMetadata(index: string, strings: string[], numbers: (string | [name: string, dtype: string])[]): PandasMetadata {
  const column = (name: string, kind: string): PandasColumn => ({
    name,
    field_name: name,
    pandas_type: kind,
    numpy_type: kind === "unicode" ? "object" : kind,
    metadata: null,
  });
  return {
    index_columns: [index],
    column_indexes: [{ name: null, field_name: null, pandas_type: "unicode", numpy_type: "object", metadata: { encoding: "UTF-8" } }],
    columns: [column(index, "unicode"), ...strings.map((s) => column(s, "unicode")), ...numbers.map((n) => (typeof n === "string" ? column(n, "float64") : column(...n)))],
    creator: { library: "basecamp", version: "0.1.0" },
    pandas_version: "2.2.3",
  };
}

/** The numpy dtype of a column's typed array. */
export function numpyType(values: NumericColumn): string {
  return values.constructor.name.replace("Array", "").toLowerCase();
}
