"""The reference for the end-to-end `score` bench: SCORING.md's CORR, AIMC and NCORR per exped of a
predictions CSV, and their mean/std/Sharpe, in plain pandas/numpy/scipy, printed as the JSON of
`basecamp score FILE --core ... --json`.

    /usr/bin/python3 test/bench/reference_score.py FILE.csv --core feature_0,feature_1
"""
import argparse
import json
import sys

import numpy as np
import pandas as pd
from scipy.stats import norm, rankdata

MISSING = -1.0


def gaussianise(x):
    return norm.ppf((rankdata(x) - 0.5) / len(x))


def power(x):
    return np.sign(x) * np.abs(x) ** 1.5


def pearson(x, y):
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return 0.0
    dx, dy = x - x.mean(), y - y.mean()
    sxx, syy = (dx * dx).sum(), (dy * dy).sum()
    if sxx == 0 or syy == 0:
        return 0.0
    return float(np.clip((dx * dy).sum() / (np.sqrt(sxx) * np.sqrt(syy)), -1, 1))


def scorable(p, t):
    return len(t) >= 2 and not np.all(t == t[0])


def corr(p, t):
    return pearson(power(gaussianise(p)), power(t - t.mean())) if scorable(p, t) else 0.0


def aimc(p, b, t):
    if not scorable(p, t):
        return 0.0
    gp, gb = gaussianise(p), gaussianise(b)
    bb = gb @ gb
    r = gp - (gp @ gb / bb) * gb if bb != 0 else gp
    return float(r @ (t - t.mean()) / len(t))


def ncorr(p, t, core):
    if not scorable(p, t):
        return 0.0
    gp = gaussianise(p)
    x = np.column_stack([core, np.ones(len(gp))])
    beta, *_ = np.linalg.lstsq(x, gp, rcond=None)
    r = gp - x @ beta
    if r.std() < 1e-9 * gp.std():
        return 0.0
    return corr(r, t)


def score_exped(df, core):
    df = df.sort_values("id")
    features = df[core].to_numpy(dtype=float)
    for j in range(features.shape[1]):
        col = features[:, j]
        bad = ~np.isfinite(col) | (col == MISSING)
        col[bad] = col[~bad].mean() if (~bad).any() else 0.0
    p, t, b = (df[c].to_numpy(dtype=float) for c in ("prediction", "target", "v1_designated"))
    rows = np.isfinite(p) & np.isfinite(t)
    with_b = rows & np.isfinite(b)
    return {
        "n": int(rows.sum()),
        "corr": corr(p[rows], t[rows]),
        "aimc": aimc(p[with_b], b[with_b], t[with_b]) if (np.isfinite(t) & np.isfinite(b)).any() else None,
        "ncorr": ncorr(p[rows], t[rows], features[rows]),
    }


def summary(values):
    x = np.array(values, dtype=float)
    mean, std = (float(x.mean()), float(x.std())) if len(x) else (0.0, 0.0)
    return {"mean": mean, "std": std, "sharpe": mean / std if std else 0.0}


def main():
    args = argparse.ArgumentParser()
    args.add_argument("file")
    args.add_argument("--core", default="")
    opts = args.parse_args()
    core = [c for c in opts.core.split(",") if c]
    df = pd.read_csv(opts.file, usecols=["id", "exped", "prediction", "target", "v1_designated", *core], dtype={"id": str, "exped": str})
    expeds = [{"exped": e, **score_exped(g, core)} for e, g in df.groupby("exped", sort=True)]
    out = {"expeds": expeds, "summary": {k: summary([e[k] for e in expeds if e[k] is not None]) for k in ("corr", "aimc", "ncorr")}}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
