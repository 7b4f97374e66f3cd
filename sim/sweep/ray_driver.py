"""The Ray driver of `basecamp sweep --ray ADDRESS`.

Reads a sweep's cells on stdin, one JSON line each ({"index": ..., "cell": ...}), submits each as a
Ray task with its resources, and prints each cell's outcome line as soon as its task finishes, in
the order they finish. A task runs the cell with `node BASECAMP sweep-worker`, the same worker the
local pool runs, so a cell gives the same bytes here as on one machine. Ray retries a task whose
node died (max_retries); a cell whose own code fails is not retried: its outcome says why.

Every node needs Node 20 and the package at the same paths as here (--node, --basecamp), and the
cells' files (strategies, scenarios, dataset directories) at paths every node sees.
"""
import argparse
import json
import subprocess
import sys

import ray

RESULT_MARK = "sweep-result\t"


@ray.remote
def run_cell(job_line, node, basecamp):
    done = subprocess.run([node, basecamp, "sweep-worker"], input=job_line + "\n", capture_output=True, text=True)
    for line in done.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            return line
    raise RuntimeError(f"the cell's worker exited with code {done.returncode} and no result: {done.stderr[-4000:]}")


def failed(index, reason, traceback):
    return RESULT_MARK + json.dumps({"index": index, "outcome": {"ok": False, "reason": reason, "traceback": traceback}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True)
    parser.add_argument("--node", required=True)
    parser.add_argument("--basecamp", required=True)
    parser.add_argument("--num-cpus", type=float, default=1)
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--max-retries", type=int, default=3)
    args = parser.parse_args()

    ray.init(address=args.address, logging_level="ERROR", log_to_driver=False)
    options = {"num_cpus": args.num_cpus, "max_retries": args.max_retries}
    if args.memory_mb > 0:
        options["memory"] = args.memory_mb * 1024 * 1024
    task = run_cell.options(**options)
    index_of = {}
    for line in sys.stdin:
        line = line.strip()
        if line:
            index_of[task.remote(line, args.node, args.basecamp)] = json.loads(line)["index"]
    pending = list(index_of)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            try:
                line = ray.get(ref)
            except Exception as e:  # the task failed for good: the cell is recorded as failed, the sweep goes on
                line = failed(index_of[ref], f"the Ray task failed: {type(e).__name__}", str(e))
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    ray.shutdown()


if __name__ == "__main__":
    main()
