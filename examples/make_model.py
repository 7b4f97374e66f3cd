"""Makes a model file: a cloudpickled predict callable, the service's model-file contract.

    python3 examples/make_model.py examples/model.pkl
    npx basecamp backtest examples/model.pkl

The callable takes the live features (a DataFrame indexed by `id`) and, when it has a second
parameter, the live benchmark file; it returns one value in [0, 1] per row: here the rank of each
row's mean feature value (missing values, -1, left out), as a one-column DataFrame.
"""
import sys

import cloudpickle
import numpy as np
import pandas as pd


def predict(live):
    features = live[[c for c in live.columns if c.startswith("feature_")]].replace(-1.0, np.nan)
    return pd.DataFrame({"prediction": features.mean(axis=1).rank(pct=True)}, index=live.index)


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "model.pkl"
    with open(path, "wb") as f:
        cloudpickle.dump(predict, f)
    print(f"wrote {path}")
