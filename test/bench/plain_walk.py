"""The plain walk-forward a user would write, for the real-size bench to pair with `basecamp backtest`:
pd.read_parquet, the strategy's own fit once on the train split (a model file has none), its predict
on each walked validation exped (the validation expeds but the last HELD, which the backtest holds
out as rounds), and CORR and AIMC per exped in vectorised numpy (SCORING.md's, as in
reference_score.py). Prints {"expeds": [{exped, corr, aimc}]} as JSON.

    .venv/bin/python test/bench/plain_walk.py DATA_DIR (--strategy FILE.py | --model FILE.pkl) [--held 12]
"""
import argparse
import importlib.util
import inspect
import json
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(__file__))
from reference_score import aimc, corr  # noqa: E402


def load_strategy(opts):
    if opts.model:
        import cloudpickle
        with open(opts.model, "rb") as f:
            return None, cloudpickle.load(f)
    spec = importlib.util.spec_from_file_location("strategy", opts.strategy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, "fit", None), module.predict


def main():
    args = argparse.ArgumentParser()
    args.add_argument("data")
    args.add_argument("--strategy")
    args.add_argument("--model")
    args.add_argument("--held", type=int, default=12)
    opts = args.parse_args()
    fit, predict = load_strategy(opts)
    if fit is not None:
        fit(pd.read_parquet(os.path.join(opts.data, "train.parquet")))
    validation = pd.read_parquet(os.path.join(opts.data, "validation.parquet"))
    benchmark = pd.read_parquet(os.path.join(opts.data, "v5_validation_benchmark_models.parquet"))
    features = [c for c in validation.columns if c.startswith("feature_")]
    two = len([p for p in inspect.signature(predict).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]) >= 2
    walked = sorted(validation["exped"].unique())[:-opts.held]
    out = []
    for exped, rows in validation[validation["exped"].isin(walked)].groupby("exped", sort=True):
        live = rows[["exped", *features]]
        bench = benchmark.loc[live.index]
        answer = predict(live, bench) if two else predict(live)
        p = (answer if isinstance(answer, pd.Series) else answer.iloc[:, 0]).reindex(live.index).to_numpy(dtype=np.float64)
        t = rows["target"].to_numpy(dtype=np.float64)
        b = bench["v1_designated"].to_numpy(dtype=np.float64)
        out.append({"exped": exped, "corr": corr(p, t), "aimc": aimc(p, b, t)})
    json.dump({"expeds": out}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
