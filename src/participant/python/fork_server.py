"""Basecamp's fork server: one warm interpreter in a sandbox that forks a fresh worker per strategy.

    python3 -B /participant/fork_server.py CONTROL

Runs inside one sandbox (src/participant/fork-server.ts) and imports once what every worker
imports (numpy, pandas, cloudpickle), and compiles worker.py once, so a worker starts in
milliseconds instead of paying for the interpreter, those imports and the compile each time (a
sweep forks one per cell: compiling worker.py took about 5 ms of CPU a worker). It serves one
worker at a time. A launcher (fork_launcher.py, on the host) binds a Unix socket in /participant,
writes the socket's name as one line to the CONTROL fifo and waits; the server connects to it and
receives the worker's descriptors (its requests, answers, stdout and stderr) and its arguments. It
forks a child that runs `worker.py ARGS` as __main__ on those descriptors, in a session of its
own, exactly as a fresh `python3 -B /participant/worker.py ARGS` would but with the imports and
the compile done.

When the child exits, the server sends its exit status to the launcher, which ends with it; when
the launcher goes away first (the worker was stopped), the server kills the child. Either way it
then kills every other process in the sandbox (whatever the child started: the server is the only
process of the sandbox's PID namespace besides its init) and empties the scratch directory (/tmp),
so the next worker finds neither a process nor a file of the one before.
"""
import atexit
import fcntl
import json
import os
import select
import shutil
import signal
import socket
import sys
import types

WORKER = "/participant/worker.py"
SCRATCH = "/tmp"
#: The worker's descriptors, in the order the launcher sends them.
WORKER_FDS = (3, 4, 1, 2)
MAX_ARGS_BYTES = 1 << 16


def main():
    # Open before the imports, so a launcher's line waits in the fifo while they run (O_RDWR: the
    # fifo never reads as ended when a launcher closes its end).
    control = os.open(sys.argv[1], os.O_RDWR)
    import cloudpickle  # noqa: F401  (a model file's worker unpickles with it)
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    with open(WORKER, "rb") as f:
        worker = compile(f.read(), WORKER, "exec")
    pending = b""
    while True:
        chunk = os.read(control, 4096)
        if not chunk:
            return
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            serve_one(os.path.join("/participant", os.path.basename(line.decode())), worker)


def serve_one(path, worker):
    """Forks one worker for the launcher at `path`, waits for its end, and clears the sandbox after it."""
    launcher = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        launcher.connect(path)
        message, fds, _, _ = socket.recv_fds(launcher, MAX_ARGS_BYTES, len(WORKER_FDS))
    except OSError:  # the launcher is gone already
        launcher.close()
        return
    if len(fds) != len(WORKER_FDS):
        for fd in fds:
            os.close(fd)
        launcher.close()
        return
    pid = os.fork()
    if pid == 0:
        become_worker(fds, json.loads(message), worker)
    for fd in fds:
        os.close(fd)
    ended = os.pidfd_open(pid)
    ready, _, _ = select.select([ended, launcher], [], [])
    if ended not in ready:  # the launcher was stopped (or broke the protocol): so is the worker
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(ended)
    clear_sandbox()
    try:
        code = os.waitstatus_to_exitcode(status)
        launcher.sendall(f"signal {-code}".encode() if code < 0 else f"code {code}".encode())
    except OSError:
        pass
    launcher.close()


def clear_sandbox():
    """Kills every process of the sandbox but this one and its init, then empties the scratch directory."""
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for root, dirs, _ in os.walk(SCRATCH):
        for d in dirs:  # a directory the worker closed to itself is opened first (never through a link)
            if not os.path.islink(os.path.join(root, d)):
                os.chmod(os.path.join(root, d), 0o700)
    for entry in os.scandir(SCRATCH):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            os.unlink(entry.path)


def become_worker(fds, args, worker):
    """In the forked child: the launcher's descriptors as 3, 4, 1 and 2, nothing else of the server's, then worker.py as __main__. Never returns."""
    code = 1
    try:
        os.setsid()
        # Copied above the targets first: a received descriptor may itself be numbered 1 to 4.
        moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, max(WORKER_FDS) + 1) for fd in fds]
        for target, fd in zip(WORKER_FDS, moved):
            os.dup2(fd, target)
        os.closerange(max(WORKER_FDS) + 1, 2**31 - 1)
        sys.argv = [WORKER, *args]
        try:
            run_as_main(worker)
            code = 0
        except SystemExit as e:
            code = exit_code(e)
        except BaseException:
            sys.excepthook(*sys.exc_info())
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
    finally:
        os._exit(code)


def run_as_main(code):
    """Runs worker.py's compiled `code` as the module __main__, as `python3 worker.py` (runpy.run_path) does."""
    main = types.ModuleType("__main__")
    main.__file__ = WORKER
    sys.modules["__main__"] = main
    exec(code, main.__dict__)


def exit_code(e):
    """The status a fresh interpreter would exit with for SystemExit `e`."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    main()
