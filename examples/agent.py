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


def row_blocks(frame):
    """The frame's rows, BLOCK_ROWS at a time (views: nothing is copied)."""
    return (frame.iloc[start:start + BLOCK_ROWS] for start in range(0, len(frame), BLOCK_ROWS))


def present_sums(x):
    """Per feature, the sum of x's non-missing values and their count."""
    present = ~np.isnan(x)
    x[~present] = 0.0
    return x.sum(axis=0), present.sum(axis=0)


def normal_equations(block, features, target, target_mean):
    """X'X and X'(y - mean y) of one block: X its centred features, y its target."""
    x = centred(features_of(block, features))
    y = block[target].to_numpy(dtype=float) - target_mean
    return x.T @ x, x.T @ y


def fit(train):
    features = [c for c in train.columns if c.startswith("feature_")]
    target = "target" if "target" in train.columns else next(c for c in train.columns if c.startswith("target"))
    # Each block's floats are made and dropped inside one call, so only one block is ever held.
    sums, counts = np.zeros(len(features)), np.zeros(len(features))
    for block in row_blocks(train):
        block_sums, block_counts = present_sums(features_of(block, features))
        sums += block_sums
        counts += block_counts
    model.update(features=features, mean=sums / counts)
    # Ridge on the centred features: (X'X + alpha I) w = X'(y - mean y), X'X and X'y summed over the blocks.
    target_mean = train[target].to_numpy(dtype=float).mean()
    xx, xy = np.zeros((len(features), len(features))), np.zeros(len(features))
    for block in row_blocks(train):
        block_xx, block_xy = normal_equations(block, features, target, target_mean)
        xx += block_xx
        xy += block_xy
    model["w"] = np.linalg.solve(xx + PARAMS["alpha"] * np.eye(len(features)), xy)


def predict(live, benchmark=None):
    scores = centred(features_of(live, model["features"])) @ model["w"]
    return pd.Series(scores, index=live.index).rank(pct=True)
