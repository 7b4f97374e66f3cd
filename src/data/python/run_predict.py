"""Runs one cloudpickled predict callable on one set of live features: Basecamp's auto-submit lane.

    python3 run_predict.py RUN_DIR

RUN_DIR holds model.pkl, features.csv (index `id`) and benchmark.csv (index `id`). The callable
gets the features, and the benchmark too when it takes two parameters. Its answer must be a
DataFrame with one numeric column; the values are written to RUN_DIR/predictions.csv as
`id,<column>` with repr() precision, so the caller reads back exactly the floats Python held.
RUN_DIR/result.json says how it went: {"ok": true, "column": ..., "rows": n} or
{"ok": false, "error": "..."}. Checks on ids and value ranges are the caller's.

This is not a sandbox: it runs the caller's own pickle in a plain subprocess.
"""
import inspect
import json
import os
import sys


def fail(run_dir, error):
    with open(os.path.join(run_dir, "result.json"), "w") as f:
        json.dump({"ok": False, "error": error}, f)


def read_frame(pd, path):
    # ids are opaque strings (a hex id of digits only must stay a string); floats read back exactly
    return pd.read_csv(path, index_col="id", dtype={"id": str, "exped": str}, float_precision="round_trip")


def positional_parameters(fn):
    """How many positional arguments the callable takes: 2 for *args; 1 when it cannot be inspected."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    n = 0
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            return 2
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return n


def describe(value):
    return f"{type(value).__module__}.{type(value).__qualname__}"


def main(run_dir):
    try:
        import cloudpickle
        import pandas as pd
    except ImportError as e:
        return fail(run_dir, f"the interpreter cannot import {e.name}")
    try:
        with open(os.path.join(run_dir, "model.pkl"), "rb") as f:
            fn = cloudpickle.load(f)
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: the run must report
        return fail(run_dir, f"the model file does not unpickle: {type(e).__name__}: {e}")
    if not callable(fn):
        return fail(run_dir, f"the model file holds {describe(fn)}, not a callable")
    features = read_frame(pd, os.path.join(run_dir, "features.csv"))
    args = [features]
    if positional_parameters(fn) >= 2:
        args.append(read_frame(pd, os.path.join(run_dir, "benchmark.csv")))
    try:
        out = fn(*args)
    except BaseException as e:  # a predict calling sys.exit() is a failed run, not a silent one
        return fail(run_dir, f"predict raised {type(e).__name__}: {e}")
    if not isinstance(out, pd.DataFrame):
        return fail(run_dir, f"predict returned {describe(out)}, not a DataFrame")
    if out.shape[1] != 1:
        return fail(run_dir, f"predict returned a DataFrame with {out.shape[1]} columns, not one")
    column = out.columns[0]
    values = out.iloc[:, 0]
    if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return fail(run_dir, f"predict's column '{column}' holds {values.dtype} values, not numbers")
    with open(os.path.join(run_dir, "predictions.csv"), "w") as f:
        f.write("id,prediction\n")
        for key, value in zip(out.index, values):
            f.write(f"{json.dumps(str(key))},{float(value)!r}\n")
    with open(os.path.join(run_dir, "result.json"), "w") as f:
        json.dump({"ok": True, "column": str(column), "rows": len(out)}, f)


if __name__ == "__main__":
    main(sys.argv[1])
