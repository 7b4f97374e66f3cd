"""A Basecamp strategy file: LightGBM on every feature, fitted once on the train split.

    npx basecamp backtest examples/lightgbm_agent.py

The features arrive as the file stores them (int8 here), which LightGBM takes as they are. The
seed and the thread count are fixed, so a backtest gives the same numbers every run. predict ranks
the model's output within the round, so every value is in (0, 1].
"""
import lightgbm as lgb
import pandas as pd

PARAMS = {"n_estimators": 200, "learning_rate": 0.05, "max_depth": 5, "num_leaves": 31, "colsample_bytree": 0.1, "n_jobs": 2, "seed": 42}
model = {}


def fit(train):
    features = [c for c in train.columns if c.startswith("feature_")]
    target = "target" if "target" in train.columns else next(c for c in train.columns if c.startswith("target"))
    regressor = lgb.LGBMRegressor(**PARAMS, deterministic=True, force_row_wise=True, verbose=-1)
    regressor.fit(train[features], train[target])
    model.update(features=features, regressor=regressor)


def predict(live, benchmark=None):
    scores = model["regressor"].predict(live[model["features"]])
    return pd.Series(scores, index=live.index).rank(pct=True)
