"""Basecamp's persistent participant worker: loads one strategy, then answers fit and predict calls.

    python3 worker.py LIMITS_JSON

Requests arrive on fd 3 and answers leave on fd 4, so nothing the participant prints can reach the
protocol (stdout and stderr go where the caller points them: the agent's log file, or nowhere and a
crash tail). Both are flushed before every answer, so the log holds a call's prints once it is
answered. A failed call's answer carries the Python traceback of the participant's own frames.
Every message is
  u32 header length, u32 body length (little-endian), the JSON header, the body.
A frame in a request body is its float64 columns (frame order), the exped codes (uint32 into the
header's labels), the id byte offsets (uint32, rows + 1) and the UTF-8 ids. A predict answer's
body is the float64 values, the id offsets and the ids, the same way.

LIMITS_JSON ({} when trusted) holds the rlimits set before any participant code is loaded; lowered
hard limits cannot be raised again from inside. Where the sandbox has a cgroup, its memory and
processes are bounded there, for the whole sandbox, and LIMITS_JSON holds only CPU seconds and file
size (src/participant/sandbox-group.ts).
"""
import inspect
import json
import os
import resource
import struct
import sys
import traceback

REQUESTS, ANSWERS = 3, 4
LIMITS = {
    "memory_bytes": resource.RLIMIT_AS,
    "cpu_seconds": resource.RLIMIT_CPU,
    "processes": resource.RLIMIT_NPROC,
    "file_size_bytes": resource.RLIMIT_FSIZE,
}


def apply_limits(limits):
    for name, value in limits.items():
        resource.setrlimit(LIMITS[name], (value, value))


def read_exactly(n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = os.readv(REQUESTS, [view[got:]])
        if k == 0:
            raise EOFError
        got += k
    return buf


def read_message():
    header_len, body_len = struct.unpack("<II", read_exactly(8))
    header = json.loads(bytes(read_exactly(header_len)))
    return header, read_exactly(body_len)


def send(header, parts=()):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a participant may have closed or replaced them
            pass
    head = json.dumps(header).encode()
    body_len = sum(len(p) for p in parts)
    data = b"".join([struct.pack("<II", len(head), body_len), head, *parts])
    view = memoryview(data)
    while view:
        view = view[os.write(ANSWERS, view):]


def describe(value):
    return f"{type(value).__module__}.{type(value).__qualname__}"


def positional_parameters(fn):
    """How many positional arguments the callable takes: 2 for *args; 1 when it cannot be inspected."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    n = 0
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            return 2
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return n


def split_utf8(blob, offsets):
    text = bytes(blob).decode("utf-8")
    if len(text) == len(blob):  # all ASCII: byte offsets are character offsets
        return [text[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]
    return [bytes(blob[offsets[i]:offsets[i + 1]]).decode("utf-8") for i in range(len(offsets) - 1)]


def read_frame(np, pd, spec, body, at):
    """One frame of a request body from byte `at`: a DataFrame indexed by `id`, then the next offset."""
    rows = spec["rows"]
    data = {}
    for name in spec["columns"]:
        data[name] = np.frombuffer(body, dtype="<f8", count=rows, offset=at)
        at += rows * 8
    codes = np.frombuffer(body, dtype="<u4", count=rows, offset=at)
    at += rows * 4
    offsets = np.frombuffer(body, dtype="<u4", count=rows + 1, offset=at).tolist()
    at += (rows + 1) * 4
    ids = split_utf8(memoryview(body)[at:at + offsets[-1]], offsets)
    at += spec["id_bytes"]
    at += -at % 8
    exped = np.array(spec["exped_labels"], dtype=object)[codes]
    return pd.DataFrame({"exped": exped, **data}, index=pd.Index(ids, dtype=object, name="id")), at


class Strategy:
    def __init__(self, request):
        import pandas as pd
        self.pd = pd
        self.is_module = request["kind"] == "module"
        self.fit_fn = None
        if self.is_module:
            self.predict_fn, self.fit_fn = load_module(request["path"], request["params"])
        else:
            self.predict_fn = load_pickle(request["path"])

    def fit(self, train):
        if self.fit_fn is not None:
            self.fit_fn(train)

    def predict(self, live, benchmark):
        args = [live]
        if positional_parameters(self.predict_fn) >= 2:
            args.append(benchmark)
        return self.predict_fn(*args)

    def column_of(self, out):
        """(column name, values) of predict's answer, or raises Refusal saying what is wrong with it."""
        pd = self.pd
        if self.is_module and isinstance(out, pd.Series):
            column, values = ("prediction" if out.name is None else out.name), out
        elif isinstance(out, pd.DataFrame):
            if out.shape[1] != 1:
                raise Refusal(f"predict returned a DataFrame with {out.shape[1]} columns, not one")
            column, values = out.columns[0], out.iloc[:, 0]
        else:
            wanted = "a Series or a DataFrame" if self.is_module else "a DataFrame"
            raise Refusal(f"predict returned {describe(out)}, not {wanted}")
        if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            raise Refusal(f"predict's column '{column}' holds {values.dtype} values, not numbers")
        return str(column), values


class Refusal(Exception):
    def __init__(self, reason, error=None):
        super().__init__(reason)
        self.traceback = participant_traceback(error) if error is not None else None


#: Frames of this file are Basecamp's, not the participant's: left out of a traceback.
WORKER_FILE = os.path.abspath(__file__)
#: The last characters of a traceback kept: a deep recursion cannot flood the answer's header.
TRACEBACK_CHARS = 16_000


def participant_frame(filename):
    """Whether a frame is the participant's: not this worker's, not the import machinery's (`<frozen importlib…>`)."""
    return not filename.startswith("<frozen ") and os.path.abspath(filename) != WORKER_FILE


def participant_traceback(error):
    """The exception's traceback without this worker's own frames (chained causes included), its last TRACEBACK_CHARS."""
    try:
        summary = traceback.TracebackException.from_exception(error)
        summary.stack = traceback.StackSummary.from_list([f for f in summary.stack if participant_frame(f.filename)])
        text = "".join(summary.format())
    except Exception as e:  # a broken __str__ or the like: say so rather than lose the call's reason
        text = f"(the traceback cannot be formatted: {type(e).__name__})\n"
    return text[-TRACEBACK_CHARS:]


def load_module(path, params):
    import importlib.util
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location("strategy", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except BaseException as e:
        # A SyntaxError's str() names the file by its name inside the sandbox: give the line alone.
        detail = f"{e.msg} (line {e.lineno})" if isinstance(e, SyntaxError) else str(e)
        raise Refusal(f"the strategy does not load: {type(e).__name__}: {detail}", e)
    predict = getattr(module, "predict", None)
    if not callable(predict):
        raise Refusal("the strategy defines no predict(live, benchmark=None)")
    defaults = getattr(module, "PARAMS", {})
    if not isinstance(defaults, dict):
        raise Refusal(f"the strategy's PARAMS is {describe(defaults)}, not a dict")
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults)) or "none"
        raise Refusal(f"the strategy has no parameter '{unknown[0]}' (its PARAMS: {known})")
    module.PARAMS = {**defaults, **params}
    fit = getattr(module, "fit", None)
    return predict, fit if callable(fit) else None


def load_pickle(path):
    import cloudpickle
    try:
        with open(path, "rb") as f:
            fn = cloudpickle.load(f)
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: the load must report
        raise Refusal(f"the model file does not unpickle: {type(e).__name__}: {e}", e)
    if not callable(fn):
        raise Refusal(f"the model file holds {describe(fn)}, not a callable")
    return fn


def answer(np, column, values):
    """The predict answer's header and body parts: values as float64, ids as str() of each index value."""
    try:
        encoded = [str(key).encode("utf-8", "surrogatepass") for key in values.index]
        offsets = np.zeros(len(encoded) + 1, dtype="<u4")
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        floats = np.ascontiguousarray(values.to_numpy(dtype=np.float64, na_value=np.nan), dtype="<f8")
    except Exception as e:
        raise Refusal(f"predict's answer cannot be read: {type(e).__name__}: {e}")
    blob = b"".join(encoded)
    return {"ok": True, "column": column, "rows": len(encoded), "id_bytes": len(blob)}, [floats.tobytes(), offsets.tobytes(), blob]


def serve():
    import numpy as np
    import pandas as pd
    strategy = None
    while True:
        try:
            header, body = read_message()
        except EOFError:
            return
        op = header["op"]
        try:
            if op == "load":
                strategy = Strategy(header)
                send({"ok": True})
                continue
            frames, at = [], 0
            for spec in header["frames"]:
                frame, at = read_frame(np, pd, spec, body, at) if spec is not None else (None, at)
                frames.append(frame)
            try:
                out = strategy.fit(*frames) if op == "fit" else strategy.predict(*frames)
            except BaseException as e:  # a predict calling sys.exit() is a failed call, not a silent one
                raise Refusal(f"{op} raised {type(e).__name__}: {e}", e)
            if op == "fit":
                send({"ok": True})
                continue
            send(*answer(np, *strategy.column_of(out)))
        except Refusal as e:
            send({"ok": False, "error": str(e), **({"traceback": e.traceback} if e.traceback else {})})


if __name__ == "__main__":
    # Each print reaches the agent's log as its line ends, for a user watching it (tail -f).
    sys.stdout.reconfigure(line_buffering=True)
    apply_limits(json.loads(sys.argv[1]))
    os.set_inheritable(REQUESTS, False)
    os.set_inheritable(ANSWERS, False)
    serve()
