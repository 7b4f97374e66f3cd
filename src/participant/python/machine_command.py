"""Runs one hosted-machine command in the sandbox.

    python3 machine_command.py LIMITS_JSON COMMAND

Sets the rlimits it is given (lowered hard limits cannot be raised again), then becomes
`/bin/sh -c COMMAND` in the machine's workspace, its working directory.
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


def main():
    for name, value in json.loads(sys.argv[1]).items():
        resource.setrlimit(LIMITS[name], (value, value))
    os.execv("/bin/sh", ["sh", "-c", sys.argv[2]])


main()
