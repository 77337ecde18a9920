"""A process jvmlab starts with jvmlab.jdk.launch.child_setup dies with jvmlab, even when jvmlab is killed
with SIGKILL (the kernel's parent-death signal): the way every trial, profiled and counted JVM is started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

PARENT = """
import subprocess, sys, time
from jvmlab.jdk.launch import child_setup
child = subprocess.Popen(["sleep", "60"], preexec_fn=child_setup())
print(child.pid, flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_dies_when_jvmlab_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert psutil.pid_exists(child)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if psutil.Process(child).status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:
                break
            time.sleep(0.05)
        else:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the child outlived its killed parent")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
