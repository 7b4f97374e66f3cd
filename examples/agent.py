"""A Basecamp strategy file: ridge regression on every feature, in pandas and numpy.

    npx basecamp backtest examples/agent.py

fit(train) runs once per replay or backtest, before the first round; predict(live, benchmark) runs
every round and returns a value in [0, 1] per row of `live`, indexed by `id`. PARAMS are defaults a
scenario's "params" (or `backtest --params`) override.

The fit reads the train split BLOCK_ROWS rows at a time, so its memory is the frame as it came
(int8 features stay int8) plus one block as floats, whatever the split's size: a float64 copy of
1.87M rows x 700 features alone would take 10 GB.
"""
import numpy as np
import pandas as pd

PARAMS = {"alpha": 10.0}
BLOCK_ROWS = 1 << 16
model = {}


def features_of(frame, features):
    """The features as floats, -1 (a missing value) as NaN, in a copy of their own: the frame itself
    may be read-only (pandas 3's copy-on-write), and is never changed."""
    x = frame[features].to_numpy(dtype=float, copy=True)
    x[x == -1.0] = np.nan
    return x


def centred(x):
    """x (as features_of gives it) less the train split's feature means, a missing value as 0 (the mean), in place."""
    x -= model["mean"]
    return np.nan_to_num(x, copy=False)


def blocks(frame, features):
    """(first row, features_of the rows) for each BLOCK_ROWS rows of the frame."""
    for start in range(0, len(frame), BLOCK_ROWS):
        yield start, features_of(frame.iloc[start:start + BLOCK_ROWS], features)


def fit(train):
    features = [c for c in train.columns if c.startswith("feature_")]
    target = "target" if "target" in train.columns else next(c for c in train.columns if c.startswith("target"))
    # The mean of each feature over its non-missing values.
    sums, counts = np.zeros(len(features)), np.zeros(len(features))
    for _, x in blocks(train, features):
        seen = ~np.isnan(x)
        counts += seen.sum(axis=0)
        x[~seen] = 0.0
        sums += x.sum(axis=0)
    model.update(features=features, mean=sums / counts)
    # Ridge on the centred features: (X'X + alpha I) w = X'(y - mean y).
    y = train[target].to_numpy(dtype=float)
    y = y - y.mean()
    xx, xy = np.zeros((len(features), len(features))), np.zeros(len(features))
    for start, x in blocks(train, features):
        x = centred(x)
        xx += x.T @ x
        xy += x.T @ y[start:start + len(x)]
    model["w"] = np.linalg.solve(xx + PARAMS["alpha"] * np.eye(len(features)), xy)


def predict(live, benchmark=None):
    scores = centred(features_of(live, model["features"])) @ model["w"]
    return pd.Series(scores, index=live.index).rank(pct=True)
