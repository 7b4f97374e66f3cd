"""Runs each example on a small frame in this interpreter, and prints what they predicted as JSON.

    python run_examples.py EXAMPLES_DIR FEATURE_DTYPE

The frames are built as the worker builds them (src/participant/python/worker.py): columns on
read-only buffers, an `exped` column, indexed by `id`; the features are FEATURE_DTYPE (float64 as
the worker sends them today, int8 as the files hold them), -1 marking a missing value. Each example
must leave its inputs untouched, so it runs under pandas 1.5 and under pandas 3's copy-on-write.
"""
import importlib.util
import io
import json
import sys

import cloudpickle
import numpy as np
import pandas as pd

FEATURES = [f"feature_{c}" for c in "abcde"]


def frame(rng, rows, dtype, exped):
    values = rng.integers(-1, 5, size=(len(FEATURES), rows))
    data = {name: np.frombuffer(values[j].astype(dtype).tobytes(), dtype=dtype) for j, name in enumerate(FEATURES)}
    data["target"] = np.frombuffer((values[0] * 0.1 + rng.normal(size=rows)).astype("float32").tobytes(), dtype="float32")
    ids = pd.Index([f"id_{exped}_{i:03d}" for i in range(rows)], dtype=object, name="id")
    return pd.DataFrame({"exped": [f"exped_{exped:04d}"] * rows, **data}, index=ids)


def load(path):
    spec = importlib.util.spec_from_file_location(path.rsplit("/", 1)[-1][:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ranks(out, live):
    series = out.iloc[:, 0] if isinstance(out, pd.DataFrame) else out
    assert list(series.index) == list(live.index), "the prediction is not indexed by the live rows"
    values = series.to_numpy(dtype="float64")
    assert ((values >= 0) & (values <= 1)).all(), "a prediction outside [0, 1]"
    return values.tolist()


def main():
    examples, dtype = sys.argv[1], sys.argv[2]
    rng = np.random.default_rng(5)
    train = pd.concat([frame(rng, 40, dtype, e) for e in range(3)])
    live = frame(rng, 30, dtype, 3).drop(columns=["target"])
    before = (train.copy(), live.copy())

    agent = load(f"{examples}/agent.py")
    agent.fit(train)
    agent_out = ranks(agent.predict(live), live)

    # The model file as make_model.py writes it, pickled and loaded here.
    maker = load(f"{examples}/make_model.py")
    buffer = io.BytesIO()
    cloudpickle.dump(maker.predict, buffer)
    model_out = ranks(cloudpickle.loads(buffer.getvalue())(live), live)

    pd.testing.assert_frame_equal(train, before[0])
    pd.testing.assert_frame_equal(live, before[1])
    versions = {m.__name__: m.__version__ for m in (pd, np, cloudpickle)}
    print(json.dumps({"versions": versions, "agent": agent_out, "model": model_out}))


if __name__ == "__main__":
    main()
