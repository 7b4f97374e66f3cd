"""A model file for the real-size bench: ridge on every feature of DATA_DIR's train split, saved as a
cloudpickled predict(live) callable by the interpreter that runs this (the venv's, for the bench).

    .venv/bin/python test/bench/real_size_model.py DATA_DIR OUT.pkl
"""
import sys

import cloudpickle
import numpy as np
import pandas as pd


def main():
    data, out = sys.argv[1], sys.argv[2]
    train = pd.read_parquet(f"{data}/train.parquet")
    features = [c for c in train.columns if c.startswith("feature_")]
    x = train[features].to_numpy(dtype=np.float32, copy=True)
    y = train["target"].to_numpy(dtype=np.float64)
    mean = x.mean(axis=0)
    x -= mean
    w = np.linalg.solve(x.T.astype(np.float64) @ x + 10.0 * np.eye(len(features)), x.T.astype(np.float64) @ (y - y.mean()))

    def predict(live):
        scores = (live[features].to_numpy(dtype=np.float32) - mean) @ w
        return pd.DataFrame({"prediction": pd.Series(scores, index=live.index).rank(pct=True)})

    with open(out, "wb") as f:
        cloudpickle.dump(predict, f)


if __name__ == "__main__":
    main()
