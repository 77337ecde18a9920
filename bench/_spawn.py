"""Runs one command; prints its wall time, CPU time, exit code and peak RSS as one JSON object.

    python -I -S bench/_spawn.py STDOUT_FILE STDERR_FILE -- ARGV...

Why a separate, small process: Linux charges a spawned child with the peak RSS of the process that spawned
it (the child starts in its parent's memory, by vfork or fork, and exec keeps the high-water mark in
ru_maxrss). /bin/true spawned from a 400 MB Python process reports a 413 MB peak. Spawned from this script
(about 10 MB, reported as spawner_maxrss_bytes), a child's ru_maxrss is its own peak whenever that is above
this floor. wait4 gives the rusage of exactly this child.
"""

import json
import os
import resource
import sys
import time


def main() -> int:
    stdout_path, stderr_path, sep, *argv = sys.argv[1:]
    if sep != "--" or not argv:
        print("usage: _spawn.py STDOUT_FILE STDERR_FILE -- ARGV...", file=sys.stderr)
        return 2
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [
        (os.POSIX_SPAWN_OPEN, 1, stdout_path, flags, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, stderr_path, flags, 0o644),
    ]
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall_s = time.perf_counter() - t0
    result = {
        "wall_s": wall_s,
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "maxrss_bytes": usage.ru_maxrss * 1024,  # Linux reports KiB
        "exit_code": os.waitstatus_to_exitcode(status),
        "spawner_maxrss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
