"""Writes a trained ridge as a cloudpickled predict callable.

Usage: make_ridge_pickle.py <dir>. Reads <dir>/ridge.json ({features, coefficients, intercept,
fill_value}), writes <dir>/model.pkl and <dir>/result.json ({"python_version": "3.12"}).
The callable, predict(live_features, live_benchmark_models=None), fills NaN with fill_value,
applies the ridge and answers DataFrame({"prediction": ...}, index=live_features.index) with the
ridge output rank-uniformised into (0, 1).
"""
import json
import os
import sys

import cloudpickle


def make_predict(features, coefficients, intercept, fill_value):
    def predict(live_features, live_benchmark_models=None):
        import numpy as np
        import pandas as pd

        x = live_features[features].astype("float64").fillna(fill_value).to_numpy()
        raw = x @ np.asarray(coefficients, dtype="float64") + intercept
        ranks = pd.Series(raw, index=live_features.index).rank(method="average")
        return pd.DataFrame({"prediction": (ranks - 0.5) / len(ranks)}, index=live_features.index)

    return predict


def without_location(fn):
    """The pickle would carry this script's path (in the code object and the module's __file__),
    and the event log the pickle's digest: name the script without the checkout's location, so the
    same ridge gives the same bytes wherever Basecamp is installed."""
    fn.__code__ = fn.__code__.replace(co_filename="make_ridge_pickle.py")
    fn.__globals__["__file__"] = "make_ridge_pickle.py"
    return fn


def main(directory):
    with open(os.path.join(directory, "ridge.json"), encoding="utf8") as f:
        ridge = json.load(f)
    predict = without_location(make_predict(ridge["features"], ridge["coefficients"], ridge["intercept"], ridge["fill_value"]))
    with open(os.path.join(directory, "model.pkl"), "wb") as f:
        cloudpickle.dump(predict, f)
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    with open(os.path.join(directory, "result.json"), "w", encoding="utf8") as f:
        json.dump({"python_version": version}, f)


if __name__ == "__main__":
    main(sys.argv[1])
