"""A Basecamp strategy file: ridge regression on every feature, in pandas and numpy.

    npx basecamp backtest examples/agent.py

fit(train) runs once per replay or backtest, before the first round; predict(live, benchmark) runs
every round and returns a value in [0, 1] per row of `live`, indexed by `id`. PARAMS are defaults a
scenario's "params" (or `backtest --params`) override.
"""
import numpy as np
import pandas as pd

PARAMS = {"alpha": 10.0}
model = {}


def features_of(frame, features):
    """The features as floats, -1 (a missing value) as NaN, in a copy of their own: the frame itself
    may be read-only (pandas 3's copy-on-write), and is never changed."""
    x = frame[features].to_numpy(dtype=float, copy=True)
    x[x == -1.0] = np.nan
    return x


def matrix(frame, features):
    x = features_of(frame, features)
    return np.nan_to_num(x - model.get("mean", np.nanmean(x, axis=0)))


def fit(train):
    features = [c for c in train.columns if c.startswith("feature_")]
    target = "target" if "target" in train.columns else next(c for c in train.columns if c.startswith("target"))
    model.update(features=features, mean=np.nanmean(features_of(train, features), axis=0))
    x, y = matrix(train, features), train[target].to_numpy(dtype=float)
    model["w"] = np.linalg.solve(x.T @ x + PARAMS["alpha"] * np.eye(len(features)), x.T @ (y - y.mean()))


def predict(live, benchmark=None):
    scores = matrix(live, model["features"]) @ model["w"]
    return pd.Series(scores, index=live.index).rank(pct=True)
