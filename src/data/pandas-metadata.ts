/**
 * The `pandas` key of a parquet file's schema metadata, in the shape pyarrow writes it, so that
 * `pd.read_parquet` restores the row key as the frame's index (named `id`) instead of a column.
 */
export interface PandasColumn {
  name: string;
  field_name: string;
  pandas_type: "unicode" | "float64";
  numpy_type: "object" | "float64";
  metadata: null;
}

export interface PandasMetadata {
  index_columns: string[];
  column_indexes: { name: null; field_name: null; pandas_type: "unicode"; numpy_type: "object"; metadata: { encoding: "UTF-8" } }[];
  columns: PandasColumn[];
  creator: { library: string; version: string };
  pandas_version: string;
}

/** Metadata for a file laid out as `index` (string), then the string columns, then the float64 columns. */
export function pandasMetadata(index: string, strings: string[], floats: string[]): PandasMetadata {
  const column = (name: string, kind: "unicode" | "float64"): PandasColumn => ({
    name,
    field_name: name,
    pandas_type: kind,
    numpy_type: kind === "unicode" ? "object" : "float64",
    metadata: null,
  });
  return {
    index_columns: [index],
    column_indexes: [{ name: null, field_name: null, pandas_type: "unicode", numpy_type: "object", metadata: { encoding: "UTF-8" } }],
    columns: [column(index, "unicode"), ...strings.map((s) => column(s, "unicode")), ...floats.map((f) => column(f, "float64"))],
    creator: { library: "basecamp", version: "0.1.0" },
    pandas_version: "2.2.3",
  };
}
