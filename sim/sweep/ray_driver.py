"""The Ray driver of `basecamp sweep --ray ADDRESS`.

Reads a sweep's cells on stdin, one JSON line each ({"index": ..., "cell": ...}), submits each as a
Ray task with its resources, and prints each cell's outcome line as soon as its task finishes, in
the order they finish. A task hands the cell to `node FLAGS BASECAMP sweep-worker` (FLAGS: the
--node-flag values), the same worker the local pool runs with the same flags, so a cell gives the
same bytes here as on one machine; Ray reuses its worker processes, and each keeps its
sweep-worker (and the worlds it built) for the next cell it is given.
A request no node of the cluster can meet is refused before any task is submitted (exit code
REFUSED, the reason on stderr's last line): Ray would keep its tasks pending forever.
Ray retries a task whose node or Ray worker died (max_retries); a cell whose own code fails is not
retried: its outcome says why. Nor is one whose sweep-worker died under a live Ray worker: its
outcome says how it died and gives the end of the sweep-worker's stderr, which each Ray worker
keeps in a file of its own, emptied at each cell.

Every node needs Node 20 and the package at the same paths as here (--node, --basecamp), and the
cells' files (strategies, scenarios, dataset directories) at paths every node sees.
"""
import argparse
import concurrent.futures
import json
import os
import signal
import subprocess
import sys
import tempfile

import ray

RESULT_MARK = "sweep-result\t"
PR_SET_PDEATHSIG = 1
MIB = 1024 * 1024

#: The exit code of a sweep refused before it ran, whose reason (stderr's last line) is the user's to read: ray-pool.ts's REFUSED.
REFUSED = 3


#: The last bytes of a dead sweep-worker's stderr a failed cell keeps, as the local pool does.
STDERR_TAIL = 8192

# This Ray worker process's sweep-worker, started by its first cell, and the file its stderr goes to.
_worker = None
_stderr = None


def sweep_worker(node, node_flags, basecamp, strategy_python):
    global _worker, _stderr
    if _worker is None or _worker.poll() is not None:
        env = dict(os.environ, BASECAMP_PYTHON=strategy_python) if strategy_python else None
        if _stderr is None:
            # Appended to (so emptying it between cells leaves no hole), removed at once: only this process holds it.
            fd, path = tempfile.mkstemp(prefix="basecamp-sweep-worker-")
            os.close(fd)
            _stderr = open(path, "a+b")
            os.unlink(path)
        _worker = subprocess.Popen([node, *node_flags, basecamp, "sweep-worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=_stderr, text=True, env=env)
    return _worker


def stderr_tail():
    """The end of what the sweep-worker wrote on stderr during this cell."""
    _stderr.seek(max(0, _stderr.seek(0, os.SEEK_END) - STDERR_TAIL))
    return _stderr.read().decode("utf-8", "replace")


def pass_on_stderr():
    """Hands what the sweep-worker wrote on stderr so far to this Ray worker's own (Ray's worker
    log, as before it was kept here), and empties the file for the next cell."""
    _stderr.seek(0)
    sys.stderr.write(_stderr.read().decode("utf-8", "replace"))
    sys.stderr.flush()
    _stderr.truncate(0)


def ended(code):
    """How a process ended, from its return code, in the local pool's words."""
    if code >= 0:
        return f"code {code}"
    try:
        return f"signal {signal.Signals(-code).name}"
    except ValueError:
        return f"signal {-code}"


def send(worker, job_line):
    worker.stdin.write(job_line + "\n")
    worker.stdin.flush()


def announce(index):
    """Heads a cell's part of this Ray worker's log (its sweep-worker's stderr follows) with the
    resources Ray gave its task."""
    granted = ray.get_runtime_context().get_assigned_resources()
    sys.stderr.write(f"basecamp sweep: cell {index}, a Ray task given CPU {granted.get('CPU', 0):g}, memory {granted.get('memory', 0) / MIB:g} MiB\n")
    sys.stderr.flush()


@ray.remote
def run_cell(index, job_line, node, node_flags, basecamp, strategy_python):
    worker = sweep_worker(node, node_flags, basecamp, strategy_python)
    pass_on_stderr()
    announce(index)
    try:
        send(worker, job_line)
    except BrokenPipeError:
        # It died since the last cell, before poll() could tell: reaped (a process whose stdin is
        # already closed may not have ended yet, and poll() would take it for alive), then replaced.
        worker.wait()
        worker = sweep_worker(node, node_flags, basecamp, strategy_python)
        send(worker, job_line)
    for line in worker.stdout:
        if line.startswith(RESULT_MARK):
            if json.loads(line[len(RESULT_MARK):]).get("retiring"):
                worker.wait()  # it ends by itself after a module strategy's cell: the next cell starts another
            return line.rstrip("\n")
        if line != "\n":  # the blank line before each result (cell-lines.ts, resultText)
            sys.stderr.write(line)
    code = worker.wait()
    raise RuntimeError(f"the cell's sweep-worker exited ({ended(code)}) while running the cell\nits stderr ended:\n{stderr_tail()}")


def die_with(parent):
    """Ends this driver when the sweep that started it (pid `parent`) ends, even killed outright:
    Ray then ends this job's tasks, and no cell runs on for no one. Linux only (prctl)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    try:
        os.kill(parent, 0)
    except ProcessLookupError:  # it ended before the line above
        sys.exit(f"ray_driver: the sweep that started it (pid {parent}) has ended")


def failed(index, reason, traceback):
    return RESULT_MARK + json.dumps({"index": index, "outcome": {"ok": False, "reason": reason, "traceback": traceback}})


def cpu_count(n):
    return f"{n} CPU" if n == 1 else f"{n} CPUs"


def unmeetable(cpus, memory_mb, nodes, address):
    """Why none of `nodes` (each alive node's resources) can run a cell's task, or None. A task runs
    on one node, so the request is held against each node, not against the cluster's sum. Only the
    nodes up now count: a cluster that would start a larger node for it (an autoscaler) is refused too."""
    most_cpus = max((r.get("CPU", 0) for r in nodes), default=0)
    most_mib = max((int(r.get("memory", 0) // MIB) for r in nodes), default=0)
    no_node = f"no node of the Ray cluster at {address} has"
    if cpus > most_cpus:
        return f"--ray-cpus {cpus}: {no_node} {cpu_count(cpus)} (the largest has {most_cpus:g})"
    if memory_mb > most_mib:
        return f"--ray-memory {memory_mb}: {no_node} {memory_mb} MiB (the largest has {most_mib} MiB)"
    if not any(r.get("CPU", 0) >= cpus and r.get("memory", 0) >= memory_mb * MIB for r in nodes):
        return f"--ray-cpus {cpus} --ray-memory {memory_mb}: {no_node} both {cpu_count(cpus)} and {memory_mb} MiB"
    return None


def outcome_lines(index_of):
    """Each task's outcome line as soon as it finishes, from `index_of` (each task's future: its
    cell's index). One future per task, so each result costs the same however many are pending (a
    ray.wait over all pending tasks for each result was quadratic: 4.7 s for 10,000 finished tasks,
    against 0.5 s); each future is let go once its line is out, and with it the result Ray kept."""
    for done in concurrent.futures.as_completed(index_of):
        index = index_of.pop(done)
        try:
            yield done.result()
        except Exception as e:  # the task failed for good: the cell is recorded as failed, the sweep goes on
            cause = getattr(e, "cause", None) or e  # a task's own exception, which Ray wraps
            yield failed(index, f"the Ray task failed: {type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''}", str(e))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--node-flag", action="append", default=[], help="a flag for node before the sweep-worker's script (given as --node-flag=FLAG)")
    parser.add_argument("--basecamp", required=True)
    parser.add_argument("--num-cpus", type=int, required=True)
    parser.add_argument("--memory-mb", type=int, required=True, help="0: none")
    parser.add_argument("--max-retries", type=int, default=3)
    parser.add_argument("--strategy-python", default="", help="BASECAMP_PYTHON for the cells' Python strategies")
    parser.add_argument("--parent", type=int, default=0, help="the sweep's pid: the driver ends when it does")
    args = parser.parse_args()
    if args.parent:
        die_with(args.parent)

    ray.init(address=args.address, logging_level="ERROR", log_to_driver=False)
    alive = [n["Resources"] for n in ray.nodes() if n["Alive"]]
    refusal = unmeetable(args.num_cpus, args.memory_mb, alive, ray.get_runtime_context().gcs_address if args.address == "auto" else args.address)
    if refusal:
        ray.shutdown()
        sys.stderr.write(refusal + "\n")
        sys.exit(REFUSED)
    options = {"num_cpus": args.num_cpus, "max_retries": args.max_retries}
    if args.memory_mb > 0:
        options["memory"] = args.memory_mb * MIB
    task = run_cell.options(**options)
    index_of = {}
    for line in sys.stdin:
        line = line.strip()
        if line:
            index = json.loads(line)["index"]
            index_of[task.remote(index, line, args.node, args.node_flag, args.basecamp, args.strategy_python).future()] = index
    for line in outcome_lines(index_of):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    ray.shutdown()


if __name__ == "__main__":
    main()
