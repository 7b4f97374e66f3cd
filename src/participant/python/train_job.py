"""Basecamp's hosted training job, run once in the sandbox for one job (src/participant/run-job.ts).

    python3 train_job.py LIMITS_JSON

Everything it reads and writes is in its working directory, the sandbox's scratch dir:
  job.json   {kind, params, features, fill_value, rows, folds, custom_source?}
  x.f64      rows x features float64, row-major (NaN kept: the preset fills it)
  y.f64      rows float64 target (NaN: not labelled, never fitted on)
  masks.u8   folds x rows: 1 = fitted on in that fold, 2 = held out, 0 = neither (embargoed)
and answers
  oof.f64    rows float64: each row's prediction from the fold that held it out (NaN: never held out)
  fitted.f64 rows float64: the final model's predictions on every row (a digest of what was learned)
  model.pkl  the final model as a cloudpickled predict(live_features, live_benchmark_models=None)
  result.json {python_version, library_versions}
or, when the job cannot go on, error.txt with the reason (and a non-zero exit).

LIMITS_JSON holds the rlimits set before any model code is imported.
"""
import json
import os
import resource
import sys

LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,
    "cpu_seconds": resource.RLIMIT_CPU,
    "processes": resource.RLIMIT_NPROC,
    "file_size_bytes": resource.RLIMIT_FSIZE,
}


class JobError(Exception):
    pass


def apply_limits(limits):
    for name, value in limits.items():
        resource.setrlimit(LIMITS[name], (value, value))


def estimator(kind, params, custom_source):
    """The unfitted estimator of `kind`, every random draw seeded from params' seed, one thread."""
    seed = params.get("seed")
    if kind == "random_forest":
        from sklearn.ensemble import RandomForestRegressor
        return RandomForestRegressor(
            n_estimators=params["n_estimators"], max_depth=params["max_depth"], min_samples_leaf=params["min_samples_leaf"],
            max_features=params["max_features"], random_state=seed, n_jobs=1,
        )
    if kind == "mlp":
        from sklearn.neural_network import MLPRegressor
        return MLPRegressor(
            hidden_layer_sizes=tuple(params["hidden_layer_sizes"]), alpha=params["alpha"], learning_rate_init=params["learning_rate_init"],
            max_iter=params["max_iter"], early_stopping=True, random_state=seed,
        )
    if kind == "xgboost":
        from xgboost import XGBRegressor
        return XGBRegressor(
            n_estimators=params["n_estimators"], max_depth=params["max_depth"], learning_rate=params["learning_rate"],
            subsample=params["subsample"], colsample_bytree=params["colsample_bytree"], random_state=seed or 0, n_jobs=1,
            tree_method="hist",
        )
    if kind == "custom":
        return custom_estimator(custom_source, params)
    return lightgbm_estimator(kind, params)


def custom_estimator(source, params):
    """Runs custom_model_fn as a module of its own and calls its build_model(params); its classes pickle by value."""
    import types
    import cloudpickle
    module = types.ModuleType("custom_model_fn")
    module.__file__ = "custom_model_fn.py"
    sys.modules["custom_model_fn"] = module
    try:
        exec(compile(source, "custom_model_fn.py", "exec"), module.__dict__)
    except BaseException as e:  # SystemExit too: the reason must reach the job
        raise JobError(f"custom_model_fn does not run: {type(e).__name__}: {e}")
    cloudpickle.register_pickle_by_value(module)
    name_classes_by_source(source)
    try:
        model = module.build_model(dict(params))
    except BaseException as e:
        raise JobError(f"build_model(params) raised {type(e).__name__}: {e}")
    for method in ("fit", "predict"):
        if not callable(getattr(model, method, None)):
            raise JobError(f"build_model(params) returned {type(model).__module__}.{type(model).__qualname__}, which has no {method}()")
    return model


def name_classes_by_source(source):
    """
    cloudpickle names each class it pickles by value with a random uuid4 (the class's identity when
    unpickled), so the same job would make different bytes each time. Name them by the source's
    digest and the order they are pickled in instead: the same job gives the same pickle, and two
    sources never share a name.
    """
    import hashlib
    import itertools
    import types
    import cloudpickle.cloudpickle as internals
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:24]
    order = itertools.count()
    internals.uuid = types.SimpleNamespace(uuid4=lambda: types.SimpleNamespace(hex=f"{digest}{next(order):08x}"))


def fit_predict(np, make, x, y, fit_rows, predict_rows, what):
    model = make()
    try:
        model.fit(x[fit_rows], y[fit_rows])
        out = np.asarray(model.predict(x[predict_rows]), dtype="float64").reshape(-1)
    except BaseException as e:
        raise JobError(f"{what}: {type(e).__name__}: {e}")
    if out.shape[0] != int(predict_rows.sum()):
        raise JobError(f"{what}: predict returned {out.shape[0]} values for {int(predict_rows.sum())} rows")
    if not np.isfinite(out).all():
        raise JobError(f"{what}: predict returned values that are not finite")
    return model, out


def make_predict(features, fill_value, model):
    def predict(live_features, live_benchmark_models=None):
        import numpy as np
        import pandas as pd

        x = live_features[features].astype("float64").fillna(fill_value).to_numpy()
        raw = np.asarray(model.predict(x), dtype="float64").reshape(-1)
        ranks = pd.Series(raw, index=live_features.index).rank(method="average")
        return pd.DataFrame({"prediction": (ranks - 0.5) / len(ranks)}, index=live_features.index)

    # The pickle would name this script's place in the sandbox: name the script alone.
    predict.__code__ = predict.__code__.replace(co_filename="train_job.py")
    predict.__globals__["__file__"] = "train_job.py"
    return predict


def lightgbm_estimator(kind, params):
    """
    An unfitted LightGBM, deterministic (one thread, row-wise histograms, seeded): the same job
    gives the same trees. Defined below make_predict, as later kinds must be: the pickles record
    predict's line in this file, and the shipped scenarios' digest names the pickles.
    """
    if kind != "lightgbm":
        raise JobError(f"unknown model kind {kind}")
    from lightgbm import LGBMRegressor
    return LGBMRegressor(
        n_estimators=params["n_estimators"], num_leaves=params["num_leaves"], learning_rate=params["learning_rate"],
        min_child_samples=params["min_child_samples"], subsample=params["subsample"], subsample_freq=1,
        colsample_bytree=params["colsample_bytree"], random_state=params.get("seed") or 0, n_jobs=1, deterministic=True,
        force_row_wise=True, verbose=-1,
    )


def versions(kind):
    import numpy
    import sklearn
    found = {"numpy": numpy.__version__, "scikit-learn": sklearn.__version__}
    if kind in ("xgboost", "lightgbm"):
        found[kind] = __import__(kind).__version__
    return found


def run():
    import cloudpickle
    import numpy as np

    with open("job.json", encoding="utf8") as f:
        job = json.load(f)
    rows, n_features = job["rows"], len(job["features"])
    x = np.fromfile("x.f64", dtype="<f8").reshape(rows, n_features)
    x = np.where(np.isnan(x), job["fill_value"], x)  # the preset: NaN becomes the fill value, -1 stays
    y = np.fromfile("y.f64", dtype="<f8")
    masks = np.fromfile("masks.u8", dtype="u1").reshape(job["folds"], rows)
    labelled = np.isfinite(y)
    make = lambda: estimator(job["kind"], job["params"], job.get("custom_source"))

    oof = np.full(rows, np.nan)
    for k in range(job["folds"]):
        held = masks[k] == 2
        fit_rows = (masks[k] == 1) & labelled
        if not held.any() or not fit_rows.any():
            continue
        _, oof[held] = fit_predict(np, make, x, y, fit_rows, held, f"fold {k + 1}")
    model, fitted = fit_predict(np, make, x, y, labelled, np.ones(rows, dtype=bool), "the final fit")

    oof.astype("<f8").tofile("oof.f64")
    fitted.astype("<f8").tofile("fitted.f64")
    with open("model.pkl", "wb") as f:
        cloudpickle.dump(make_predict(job["features"], job["fill_value"], model), f)
    with open("result.json", "w", encoding="utf8") as f:
        json.dump({"python_version": f"{sys.version_info.major}.{sys.version_info.minor}", "library_versions": versions(job["kind"])}, f)


def main():
    apply_limits(json.loads(sys.argv[1]))
    try:
        run()
    except JobError as e:
        with open("error.txt", "w", encoding="utf8") as f:
            f.write(str(e))
        sys.exit(1)


if __name__ == "__main__":
    main()
