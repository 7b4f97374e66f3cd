"""Basecamp's sandbox launcher: seals a sandbox before it starts (src/participant/sandbox.ts).

    python3 -I -S seal.py KEEP GROUPS COMMAND...

Runs on the host, before the sandbox exists. It puts itself into each cgroup of GROUPS (a
colon-separated list of `cgroup.procs` files, empty for none), so the sandbox is bounded as a
whole from its first instruction; then it closes every descriptor from KEEP up (0..KEEP-1 are the
ones the sandbox is given), so nothing the launching process inherited reaches the sandbox
(neither Node's spawn nor bwrap closes descriptors that lack close-on-exec); then it becomes
COMMAND. Any failure ends it before COMMAND runs: the sandbox fails closed.
"""
import os
import sys


def main():
    keep = int(sys.argv[1])
    for procs in filter(None, sys.argv[2].split(":")):
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    os.closerange(keep, 2**31 - 1)
    os.execvp(sys.argv[3], sys.argv[3:])


main()
