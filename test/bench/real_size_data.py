"""A seeded dataset directory of the real event's size and shape, for the real-size bench.

    .venv/bin/python test/bench/real_size_data.py OUT_DIR [--scale 1] [--features 178] [--seed 1]

At scale 1: train 468,236 rows over 6,522 expeds, validation 23,886 rows over 261 expeds, live one
exped; `feature_*` int8 columns with values -1..9 (-1 missing), 15 float32 `target*` columns
(`target` first, the scored one, then 14 auxiliaries), ids `eiq_` + 16 hex as the parquet index
`id`, an `exped` label column, and the three `v5_<split>_benchmark_models.parquet` files
(`v1_designated`, float32, over each split's ids). `--scale k` gives each exped k times the rows.
The target is a planted linear signal on 20 features plus noise, levelled 0/0.25/0.5/0.75/1 in
5/20/50/20/5 % of the rows; live's target is blank (NaN), as in the real files. Written with
pyarrow as pandas writes it (row groups of at most 2^20 rows), one row group's worth in memory.
"""
import argparse
import os

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

TRAIN_ROWS, TRAIN_EXPEDS = 468_236, 6_522
VALIDATION_ROWS, VALIDATION_EXPEDS = 23_886, 261
LIVE_ROWS = 92
N_TARGETS = 15
SIGNAL_FEATURES = 20
ROW_GROUP = 1 << 20
PREFIX = "v5"
LEVELS = np.array([0.0, 0.25, 0.5, 0.75, 1.0], dtype=np.float32)
SHARES = np.cumsum([0.05, 0.2, 0.5, 0.2])


def exped_sizes(rows, expeds):
    """Rows per exped summing to `rows`, as even as integers allow."""
    sizes = np.full(expeds, rows // expeds)
    sizes[: rows % expeds] += 1
    return sizes


def levelled(x):
    """x's rows levelled by rank into LEVELS at SHARES."""
    cuts = np.quantile(x, SHARES)
    return LEVELS[np.searchsorted(cuts, x, side="right")]


def write_split(path, bench_path, rng, sizes, first_exped, n_features, weights, blank_target=False):
    names = [f"feature_{j:04d}" for j in range(n_features)]
    targets = ["target"] + [f"target_aux_{k:02d}" for k in range(1, N_TARGETS)]
    labels = np.repeat(np.arange(first_exped, first_exped + len(sizes)), sizes)
    writer = bench_writer = None
    try:
        for start in range(0, len(labels), ROW_GROUP):
            part = labels[start:start + ROW_GROUP]
            n = len(part)
            ids = pa.array([f"eiq_{v:016x}" for v in rng.integers(0, 2**63, size=n, dtype=np.int64)], pa.string())
            exped = pa.array([f"exped_{e:04d}" for e in part], pa.string())
            x = rng.integers(-1, 10, size=(n, n_features), dtype=np.int8)
            seen = np.where(x[:, :SIGNAL_FEATURES] < 0, 4, x[:, :SIGNAL_FEATURES]).astype(np.float32)
            signal = seen @ weights
            columns = {"exped": exped, **{name: pa.array(x[:, j]) for j, name in enumerate(names)}}
            for k, name in enumerate(targets):
                noisy = signal * (1.0 - 0.05 * k) + rng.standard_normal(n, dtype=np.float32) * 8.0
                columns[name] = pa.array(np.full(n, np.nan, np.float32) if blank_target else levelled(noisy))
            columns["id"] = ids
            table = with_pandas_index(pa.table(columns))
            benchmark = signal + rng.standard_normal(n, dtype=np.float32) * 12.0
            ranks = (np.argsort(np.argsort(benchmark)) + 0.5) / n
            bench = with_pandas_index(pa.table({"exped": exped, "v1_designated": pa.array(ranks.astype(np.float32)), "id": ids}))
            writer = writer or pq.ParquetWriter(path, table.schema)
            bench_writer = bench_writer or pq.ParquetWriter(bench_path, bench.schema)
            writer.write_table(table, row_group_size=ROW_GROUP)
            bench_writer.write_table(bench, row_group_size=ROW_GROUP)
    finally:
        for w in (writer, bench_writer):
            if w is not None:
                w.close()


def with_pandas_index(table):
    """The table with pandas metadata naming `id` as the index, as DataFrame.to_parquet writes it."""
    import json
    columns = [{"name": f.name, "field_name": f.name, "pandas_type": "unicode" if pa.types.is_string(f.type) else str(f.type.to_pandas_dtype().__name__),
                "numpy_type": "object" if pa.types.is_string(f.type) else str(f.type.to_pandas_dtype().__name__), "metadata": None} for f in table.schema]
    meta = {"index_columns": ["id"], "column_indexes": [], "columns": columns, "creator": {"library": "pyarrow", "version": pa.__version__}, "pandas_version": "2.2.3"}
    return table.replace_schema_metadata({b"pandas": json.dumps(meta).encode()})


def main():
    args = argparse.ArgumentParser()
    args.add_argument("out")
    args.add_argument("--scale", type=int, default=1)
    args.add_argument("--features", type=int, default=178)
    args.add_argument("--seed", type=int, default=1)
    opts = args.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    rng = np.random.default_rng(opts.seed)
    weights = rng.standard_normal(SIGNAL_FEATURES).astype(np.float32)
    at = lambda name: os.path.join(opts.out, name)
    bench = lambda split: at(f"{PREFIX}_{split}_benchmark_models.parquet")
    train = exped_sizes(TRAIN_ROWS * opts.scale, TRAIN_EXPEDS)
    validation = exped_sizes(VALIDATION_ROWS * opts.scale, VALIDATION_EXPEDS)
    write_split(at("train.parquet"), bench("train"), rng, train, 1, opts.features, weights)
    write_split(at("validation.parquet"), bench("validation"), rng, validation, TRAIN_EXPEDS + 5, opts.features, weights)
    live_first = TRAIN_EXPEDS + 5 + VALIDATION_EXPEDS
    write_split(at("live.parquet"), bench("live"), rng, np.array([LIVE_ROWS * opts.scale]), live_first, opts.features, weights, blank_target=True)


if __name__ == "__main__":
    main()
