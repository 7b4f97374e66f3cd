"""Writes predict.pkl: the cloudpickled predict callable the built-in event agents upload.

Run with Debian's python3 and python3-cloudpickle:  /usr/bin/python3 make_predict_pkl.py
Basecamp never runs it (event lanes store the pickle and score the predictions file); it is
checked only for its shape, a cloudpickled callable.
"""
import cloudpickle


def predict(live_features, live_benchmark_models=None):
    """Ranks the row mean of the features into (0, 1), one column `prediction` by instrument id."""
    score = live_features.filter(like="feature_").mean(axis=1)
    ranked = (score.rank(method="average") - 0.5) / len(score)
    return ranked.to_frame("prediction")


with open("predict.pkl", "wb") as f:
    cloudpickle.dump(predict, f, protocol=5)
