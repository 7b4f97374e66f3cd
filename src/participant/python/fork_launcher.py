"""Basecamp's fork launcher: starts one worker through a fork server and ends as that worker ends.

    python3 -I -S fork_launcher.py DIR NAME SERVER_PID ARGS_JSON

Runs on the host, as the process Node spawned for a worker (src/participant/fork-server.ts), with
the worker's requests on fd 3 and answers on fd 4 and its stdout and stderr where the worker's go.
It binds the Unix socket DIR/NAME (the server sees DIR as /participant), writes NAME as one line to
the server's fifo DIR/control, and hands the server those four descriptors and ARGS_JSON (worker.py's
arguments) once it connects. It then holds none of them: only the forked worker answers Node.
It exits as the worker does (its code, or killed by its signal); when it is killed itself, the
server kills the worker. It dies with Node, and ends with code 1 if the server (SERVER_PID, a host
pid) ends first.

A sweep starts one launcher per cell, so it imports the C modules `_socket` and `_signal` rather
than `socket` and `signal` (which import enum and selectors) and reads the server's word without
json: a launcher then takes about half the CPU to start (10 ms against 18-22 on the 2-core bench
machine, perf stat).
"""
import _signal as signal
import _socket as socket
import ctypes
import os
import select
import sys

PR_SET_PDEATHSIG = 1
WORKER_FDS = (3, 4, 1, 2)
#: The server's word on the worker's end (fork_server.py): "code N" or "signal N".
ENDS = {b"code", b"signal"}


def main():
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    folder, name, server_pid, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    try:
        server = os.pidfd_open(server_pid)
    except ProcessLookupError:
        gone()
    path = os.path.join(folder, name)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o666)  # the sandbox's user connects to it
    listener.listen(1)
    try:  # without waiting: with no reader (the server gone, Node's end closed) the server is gone
        fifo = os.open(os.path.join(folder, "control"), os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        gone()
    os.write(fifo, f"{name}\n".encode())
    os.close(fifo)
    if listener not in select.select([listener, server], [], [])[0]:
        gone()
    conn = socket.socket(fileno=listener._accept()[0])
    listener.close()
    os.unlink(path)
    fds = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in WORKER_FDS)  # an array of C ints
    conn.sendmsg([args.encode()], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
    for fd in (3, 4):
        os.close(fd)
    status = b""
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            break
        status += chunk
    end = status.split()
    if len(end) != 2 or end[0] not in ENDS or not end[1].isdigit():
        gone()
    how, number = end[0], int(end[1])
    if how == b"signal":
        if number not in (signal.SIGKILL, signal.SIGSTOP):  # the two no handler can hold
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    sys.exit(number)


def gone():
    """The server ended first: its last word (its stderr, DIR/server.log) is the worker's."""
    try:
        with open(os.path.join(sys.argv[1], "server.log"), "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 4096))
            last = f.read().decode("utf-8", "replace").strip().split("\n")[-1]
    except OSError:
        last = ""
    print(f"the worker's fork server ended before the worker did{': ' + last if last else ''}", file=sys.stderr)
    sys.exit(1)


main()
