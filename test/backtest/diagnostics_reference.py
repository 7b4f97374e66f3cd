"""An independent numpy/scipy implementation of the backtest report's diagnostics (docs/scoring.md).

Reads JSON on stdin: {"top_bottom": x, "features": [names], "strategy": S, "benchmark": S} where each
S is {"expeds": [{"ids", "prediction", "target", "benchmark", "features": [[column]...],
"corr", "aimc", "ncorr", "score"}]} over the expeds the strategy entered (null for NaN), and
prints the figures for the strategy as JSON: per exped fn_corr, tb_corr, designated_corr and
feature exposures; per series the statistics and the deltas against the benchmark's; the
exposure summary. Run with Debian's /usr/bin/python3 (numpy, scipy).
"""
import json
import sys

import numpy as np
from scipy.stats import norm, rankdata

MISSING = -1.0


def arr(values):
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def gauss(x):
    return norm.ppf((rankdata(x, method="average") - 0.5) / len(x))


def powered(x):
    return np.sign(x) * np.abs(x) ** 1.5


def pearson(x, y):
    if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return 0.0
    return float(np.clip(np.corrcoef(x, y)[0, 1], -1, 1))


def corr(p, t):
    """CORR over the rows where both are finite."""
    keep = np.isfinite(p) & np.isfinite(t)
    p, t = p[keep], t[keep]
    if len(p) < 2 or np.all(t == t[0]):
        return 0.0
    return pearson(powered(gauss(p)), powered(t - t.mean()))


def neutral_corr(p, t, features):
    """NCORR's definition with `features` as the core set: impute, least squares on [F | 1], rank the residual again."""
    cols = []
    for f in features:
        f = f.copy()
        bad = (f == MISSING) | ~np.isfinite(f)
        f[bad] = f[~bad].mean() if (~bad).any() else 0.0
        cols.append(f)
    keep = np.isfinite(p) & np.isfinite(t)
    p, t = p[keep], t[keep]
    if len(p) < 2 or np.all(t == t[0]):
        return 0.0
    x = np.column_stack([c[keep] for c in cols] + [np.ones(len(p))])
    gp = gauss(p)
    beta, *_ = np.linalg.lstsq(x, gp, rcond=None)
    r = gp - x @ beta
    if gp.std() == 0 or r.std() < 1e-9 * gp.std():
        return 0.0
    return pearson(powered(gauss(r)), powered(t - t.mean()))


def top_bottom_corr(ids, p, t, setting):
    """numerai-tools' numerai_corr with top_bottom: g(p) and tc over every scored row, the pearson over the extreme rows."""
    keep = np.flatnonzero(np.isfinite(p) & np.isfinite(t))
    n = len(keep)
    count = int(setting) if setting >= 1 else max(1, int(np.floor(setting * n)))
    sp = powered(gauss(p[keep]))
    st = powered(t[keep] - t[keep].mean())
    rows = np.arange(n)
    if 2 * count < n:
        order = sorted(rows, key=lambda k: (p[keep][k], ids[keep[k]]))
        rows = np.array(sorted(order[:count] + order[-count:]))
    return pearson(sp[rows], st[rows])


def designated(p, b):
    keep = np.isfinite(p) & np.isfinite(b)
    return pearson(gauss(p[keep]), gauss(b[keep]))


def exposure(p, f):
    keep = np.isfinite(p) & np.isfinite(f) & (f != MISSING)
    return abs(pearson(p[keep], f[keep]))


def stats(x):
    x = np.asarray(x, dtype=float)
    n = len(x)
    mean = x.mean()
    std = 0.0 if np.all(x == x[0]) else x.std(ddof=0)
    rho = pearson(x[:-1], x[1:]) if n >= 3 else 0.0
    k = np.sqrt(max(0.0, 1 + 2 * sum((n - i) / n * rho**i for i in range(1, n))))
    cum = np.cumsum(x)
    peak = np.maximum.accumulate(cum)
    dd = peak - cum
    depth = dd.max()
    duration = 0
    if depth > 0:
        trough = int(np.argmax(dd))
        start = max(i for i in range(trough + 1) if cum[i] >= peak[i])
        back = [j for j in range(trough + 1, n) if cum[j] >= cum[start]]
        duration = (back[0] if back else n - 1) - start
    return {
        "mean": mean,
        "std": std,
        "sharpe": 0.0 if std == 0 else mean / std,
        "smart_sharpe": 0.0 if std == 0 or k == 0 else mean / std / k,
        "max_drawdown": depth,
        "max_drawdown_expeds": duration,
        "calmar": None if depth == 0 else mean / depth,
        "hit_rate": float((x > 0).mean()),
        "autocorrelation": rho,
    }


def figures(strategy, features, setting):
    expeds = strategy["expeds"]
    per = []
    for e in expeds:
        p, t, b = arr(e["prediction"]), arr(e["target"]), arr(e["benchmark"])
        cols = [arr(c) for c in e["features"]]
        per.append(
            {
                "fn_corr": neutral_corr(p, t, cols),
                "tb_corr": top_bottom_corr(e["ids"], p, t, setting),
                "designated_corr": designated(p, b),
                "exposures": [exposure(p, c) for c in cols],
            }
        )
    series = {key: stats([e[key] for e in expeds]) for key in ["corr", "aimc", "ncorr", "score"]}
    series.update({key: stats([e[key] for e in per]) for key in ["fn_corr", "tb_corr"]})
    pooled_p = np.concatenate([arr(e["prediction"]) for e in expeds])
    pooled = [exposure(pooled_p, np.concatenate([arr(e["features"][j]) for e in expeds])) for j in range(len(features))]
    table = np.array([e["exposures"] for e in per])
    maxima = table.argmax(axis=1)
    means = table.mean(axis=0)
    top = sorted(range(len(features)), key=lambda j: (-means[j], j))[:10]
    return {
        "per_exped": per,
        "series": series,
        "designated_corr": float(np.mean([e["designated_corr"] for e in per])),
        "feature_exposure": {
            "mean_max": float(table.max(axis=1).mean()),
            "mean_max_feature": features[int(np.bincount(maxima, minlength=len(features)).argmax())],
            "pooled_max": max(pooled),
            "pooled_max_feature": features[int(np.argmax(pooled))],
            "top": [{"feature": features[j], "mean": float(means[j]), "pooled": pooled[j]} for j in top],
        },
    }


def main():
    data = json.load(sys.stdin)
    own = figures(data["strategy"], data["features"], data["top_bottom"])
    bench = figures(data["benchmark"], data["features"], data["top_bottom"])
    for key, s in own["series"].items():
        b = bench["series"][key]
        s["vs_benchmark"] = {m: s[m] - b[m] for m in ["mean", "std", "sharpe"]}
    json.dump(own, sys.stdout, default=float)


main()
